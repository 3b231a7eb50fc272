/** The admin calls that give a widget bench its tenant: a team, a livechat asset routed to it, a pull VA in it. */
type Post = (path: string, body: unknown) => Promise<{ id: number; api_key?: string }>;

export async function createWidgetTenant(
  post: Post,
  names: { team: string; asset: string; va: string; description: string },
): Promise<{ assetId: number; apiKey: string }> {
  const team = await post('/teams', { name: names.team, auto_assign: true });
  const asset = await post('/assets', { channel: 'livechat', name: names.asset });
  await post('/routing-rules', {
    name: names.asset,
    position: 0,
    conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
    team_id: team.id,
  });
  const va = await post('/virtual-agents', {
    name: names.va,
    description: names.description,
    // Pull mode: the benches read the VA's events themselves; the URL is never called.
    webhook_url: 'http://127.0.0.1:9/hook',
    delivery_mode: 'pull',
    subscriptions: ['chat.assigned', 'message.received'],
    team_id: team.id,
  });
  return { assetId: asset.id, apiKey: va.api_key ?? '' };
}
