/** The admin calls that give a widget bench its tenant: a team, a livechat asset routed to it, a VA in it. */
type Post = (path: string, body: unknown) => Promise<{ id: number; api_key?: string }>;

/**
 * The VA is in `pull` mode (the benches read its events themselves; its URL is never called)
 * unless `va` says otherwise (`delivery_mode`, `webhook_url`, turn settings...).
 */
export async function createWidgetTenant(
  post: Post,
  names: { team: string; asset: string; va: string; description: string },
  va: Record<string, unknown> = {},
): Promise<{ assetId: number; apiKey: string; vaId: number }> {
  const team = await post('/teams', { name: names.team, auto_assign: true });
  const asset = await post('/assets', { channel: 'livechat', name: names.asset });
  await post('/routing-rules', {
    name: names.asset,
    position: 0,
    conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
    team_id: team.id,
  });
  const created = await post('/virtual-agents', {
    name: names.va,
    description: names.description,
    webhook_url: 'http://127.0.0.1:9/hook',
    delivery_mode: 'pull',
    subscriptions: ['chat.assigned', 'message.received'],
    team_id: team.id,
    ...va,
  });
  return { assetId: asset.id, apiKey: created.api_key ?? '', vaId: created.id };
}
