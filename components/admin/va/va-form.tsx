'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { Controller } from 'react-hook-form';
import { described, Field, FormError, SubmitButton, TeamOptions } from '@/components/admin/form';
import { duplicateKey, type KvRow, KvRows, rowsProblems, toRecord, toRows } from '@/components/admin/kv-rows';
import { keys, tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { reveal } from '@/components/admin/shared/revealed-secrets';
import { checkUrlFormat } from '@/components/admin/shared/webhook-checks';
import { useToast } from '@/components/admin/toast';
import { useContractForm } from '@/components/admin/use-contract-form';
import { failureOf, fieldError } from '@/components/shared/errors';
import {
  type AdminVirtualAgent,
  type CreateVirtualAgentBody,
  createVirtualAgentBodySchema,
  type DeliveryMode,
  updateVirtualAgentBodySchema,
} from '@/contracts/admin/schemas/virtual-agent';
import { EVENT_TYPES, type EventType } from '@/contracts/enums';
import { headerProblem, WebhookFields } from './webhook-fields';

const PLACED = [
  'name',
  'description',
  'delivery_mode',
  'webhook_url',
  'webhook_headers',
  'subscriptions',
  'team_id',
  'skills',
  'custom_attributes',
  'fallback_team_id',
  'fallback_skill',
  'reply_timeout_seconds',
  'reply_timeout_action',
  'turn_window_ms',
  'turn_window_max_ms',
  'on_new_turn',
  'max_handovers_per_chat',
  'person_request',
];

const EVENT_HELP: Record<EventType, string> = {
  'chat.assigned': 'a chat is assigned to the VA',
  'message.received': 'the customer writes in a chat of the VA',
  'chat.closed': 'a chat of the VA is closed',
  'chat.unassigned': 'a chat is taken away from the VA',
  'approval.decided': 'a person decided an approval the VA asked for (always sent)',
  'approval.expired': 'nobody decided an approval in time (always sent)',
  'handover.requested': 'the customer asked for a person and the VA handles it (always sent)',
};

type Values = {
  name: string;
  description: string;
  delivery_mode: DeliveryMode;
  webhook_url: string;
  webhook_headers: KvRow[];
  subscriptions: EventType[];
  team_id: string;
  skills: string[];
  custom_attributes: KvRow[];
  fallback_team_id: string;
  fallback_skill: string;
  reply_timeout_seconds: string;
  reply_timeout_action: 'handover' | 'notify';
  turn_window_ms: string;
  turn_window_max_ms: string;
  on_new_turn: 'continue' | 'supersede';
  max_handovers_per_chat: string;
  person_request: 'fallback' | 'bot';
};

const LABELS = {
  name: 'the name',
  description: 'the description',
  delivery_mode: 'choose:the delivery mode',
  webhook_url: 'the webhook URL',
  webhook_headers: 'the static headers',
  subscriptions: 'choose:the event subscriptions',
  team_id: 'choose:the team',
  skills: 'the skills',
  custom_attributes: 'the custom attributes',
  fallback_team_id: 'the fallback team',
  fallback_skill: 'the fallback skill',
  reply_timeout_seconds: 'the reply budget',
  reply_timeout_action: 'choose:what happens when the reply budget runs out',
  turn_window_ms: 'the turn window',
  turn_window_max_ms: 'the longest turn',
  on_new_turn: 'choose:what a new turn does to a reply in progress',
  max_handovers_per_chat: 'the handovers per chat',
  person_request: 'choose:what "Talk to a person" does',
};

/** In pull mode an empty URL is no URL: left out when registering, removed when saving. */
function urlOf(v: Values, removed: null | undefined) {
  const url = v.webhook_url.trim();
  return v.delivery_mode === 'pull' && !url ? removed : url;
}

function common(v: Values) {
  return {
    delivery_mode: v.delivery_mode,
    webhook_headers: toRecord(v.webhook_headers),
    subscriptions: v.subscriptions,
    team_id: v.team_id ? Number(v.team_id) : undefined,
    skills: v.skills,
    custom_attributes: toRecord(v.custom_attributes),
    fallback_team_id: v.fallback_team_id ? Number(v.fallback_team_id) : null,
    fallback_skill: v.fallback_team_id && v.fallback_skill ? v.fallback_skill : null,
    reply_timeout_seconds: v.reply_timeout_seconds.trim() ? Number(v.reply_timeout_seconds) : null,
    reply_timeout_action: v.reply_timeout_action,
    turn_window_ms: v.turn_window_ms.trim() ? Number(v.turn_window_ms) : 0,
    turn_window_max_ms: v.turn_window_max_ms.trim() ? Number(v.turn_window_max_ms) : null,
    on_new_turn: v.on_new_turn,
    max_handovers_per_chat: v.max_handovers_per_chat.trim() ? Number(v.max_handovers_per_chat) : undefined,
    person_request: v.person_request,
  };
}
const createResolver = contractResolver(
  createVirtualAgentBodySchema,
  (v: Values) => ({ ...common(v), webhook_url: urlOf(v, undefined), name: v.name, description: v.description }),
  LABELS,
);
const updateResolver = contractResolver(
  updateVirtualAgentBodySchema,
  (v: Values) => ({ ...common(v), webhook_url: urlOf(v, null) }),
  LABELS,
);

/** Registration (name and description are fixed once saved) and later edits of a Virtual Agent. */
export function VaForm({ va }: { va?: AdminVirtualAgent }) {
  const qc = useQueryClient();
  const router = useRouter();
  const toast = useToast();
  const teams = tsr.teams.listTeams.useQuery({ queryKey: keys.teams }).data?.body.response ?? [];
  const { register, control, handleSubmit, watch, setValue, getValues, formState, messages } = useContractForm<
    Values,
    CreateVirtualAgentBody
  >((va ? updateResolver : createResolver) as typeof createResolver, {
    name: va?.name ?? '',
    description: va?.description ?? '',
    delivery_mode: va?.delivery_mode ?? 'webhook',
    webhook_url: va?.webhook_url ?? '',
    webhook_headers: toRows(va?.webhook_headers),
    // The guide asks bots to handle chat.unassigned (lost control), so a new VA subscribes to it too.
    subscriptions: va?.subscriptions ?? ['chat.assigned', 'message.received', 'chat.unassigned'],
    team_id: va ? String(va.team_id) : '',
    skills: va?.skills ?? [],
    custom_attributes: toRows(va?.custom_attributes),
    fallback_team_id: va?.fallback_team_id ? String(va.fallback_team_id) : '',
    fallback_skill: va?.fallback_skill ?? '',
    reply_timeout_seconds: va?.reply_timeout_seconds ? String(va.reply_timeout_seconds) : '',
    reply_timeout_action: va?.reply_timeout_action ?? 'handover',
    turn_window_ms: va?.turn_window_ms ? String(va.turn_window_ms) : '',
    turn_window_max_ms: va?.turn_window_max_ms ? String(va.turn_window_max_ms) : '',
    on_new_turn: va?.on_new_turn ?? 'continue',
    max_handovers_per_chat: String(va?.max_handovers_per_chat ?? 3),
    person_request: va?.person_request ?? 'fallback',
  });

  // The team selects are drawn before the teams arrive, so the browser shows their first option
  // ("Choose a team…") though the form holds the VA's team: once the options exist, set the
  // selects to the values the form holds.
  const teamsLoaded = teams.length > 0;
  useEffect(() => {
    if (!teamsLoaded) return;
    setValue('team_id', getValues('team_id'));
    setValue('fallback_team_id', getValues('fallback_team_id'));
  }, [teamsLoaded, setValue, getValues]);

  const create = tsr.virtualAgents.createVirtualAgent.useMutation({
    onSuccess: (res) => {
      const created = res.body.response;
      reveal(created.id, { apiKey: created.api_key, signingSecret: created.signing_secret });
      qc.invalidateQueries({ queryKey: keys.virtualAgents });
      qc.invalidateQueries({ queryKey: keys.teams });
      toast.success(`${created.name} registered.`);
      router.push(`/admin/virtual-agents/${created.id}`);
    },
  });
  const update = tsr.virtualAgents.updateVirtualAgent.useMutation({
    onSuccess: (res) => {
      qc.setQueryData(keys.virtualAgent(res.body.response.id), res);
      qc.invalidateQueries({ queryKey: keys.virtualAgents });
      toast.success('Changes saved.');
    },
  });
  const mutation = va ? update : create;
  const failure = failureOf(mutation.error);
  const errors = formState.errors;
  const err = messages(failure);

  const [mode, teamId, fallbackTeamId, url, headers, attrs, skills] = watch([
    'delivery_mode',
    'team_id',
    'fallback_team_id',
    'webhook_url',
    'webhook_headers',
    'custom_attributes',
    'skills',
  ]);
  const team = teams.find((t) => String(t.id) === teamId);
  const fallbackTeam = teams.find((t) => String(t.id) === fallbackTeamId);
  // Checks the contract cannot make (the URL's form, each header row) block sending too.
  const local = {
    url: mode === 'pull' && !url.trim() ? null : checkUrlFormat(url),
    headers: rowsProblems(headers, headerProblem).length > 0,
    attrs: rowsProblems(attrs, duplicateKey).length > 0,
  };
  const tried = formState.isSubmitted;
  const marked = tried && (Object.keys(errors).length > 0 || Object.values(local).some(Boolean));

  const submit = handleSubmit((body) => {
    if (Object.values(local).some(Boolean)) return;
    const chosen = { ...body, skills: (body.skills ?? []).filter((s) => team?.skills.some((x) => x.name === s)) };
    if (va) {
      const { name: _n, description: _d, ...changes } = chosen;
      update.mutate({ params: { id: va.id }, body: changes });
    } else create.mutate({ body: chosen });
  });

  const fixed = va ? 'Cannot be changed after saving.' : 'Required. It cannot be changed after saving.';
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={va ? 'Virtual Agent settings' : 'Add Virtual Agent'}>
      <FormError failure={failure} placed={PLACED} />
      {marked && (
        <p className="form-error" role="alert">
          Check the fields marked below.
        </p>
      )}
      <div className="grid-2">
        <Field id="va-name" label="Name" required={!va} error={err('name')} hint={fixed}>
          <input {...described('va-name', { error: err('name'), hint: true, required: !va })} readOnly={!!va} {...register('name')} />
        </Field>
        <Field id="va-team" label="Team" required error={err('team_id')} hint="A Virtual Agent belongs to exactly one team.">
          <select {...described('va-team', { error: err('team_id'), hint: true, required: true })} {...register('team_id')}>
            <TeamOptions teams={teams} empty="Choose a team…" />
          </select>
        </Field>
      </div>
      <Field id="va-description" label="Description" required={!va} error={err('description')} hint={fixed}>
        <textarea
          {...described('va-description', { error: err('description'), hint: true, required: !va })}
          readOnly={!!va}
          {...register('description')}
        />
      </Field>
      <fieldset className="checks-fieldset" aria-describedby="va-mode-hint">
        <legend>Delivery mode</legend>
        <div className="checks">
          <label>
            <input type="radio" value="webhook" {...register('delivery_mode')} />
            Webhook: events are POSTed to the bot
          </label>
          <label>
            <input type="radio" value="pull" {...register('delivery_mode')} />
            Pull: the bot reads its events (no public URL needed)
          </label>
        </div>
        <p id="va-mode-hint" className="hint">
          {mode === 'pull'
            ? 'The bot reads with GET /api/v1/events or the event stream and acknowledges what it handled; nothing is POSTed, so the webhook URL is optional.'
            : 'Each event is POSTed to the webhook URL, signed, with retries. Choose pull for a bot without a public address.'}
        </p>
        {err('delivery_mode') && <p className="field-error">{err('delivery_mode')}</p>}
      </fieldset>
      <WebhookFields
        optional={mode === 'pull'}
        url={url}
        onUrl={(v) => setValue('webhook_url', v, { shouldValidate: tried })}
        headers={headers}
        onHeaders={(rows) => setValue('webhook_headers', rows)}
        failure={failure}
        schemaError={errors.webhook_url?.message}
        showErrors={tried}
      />
      <Controller
        name="subscriptions"
        control={control}
        render={({ field }) => (
          <fieldset aria-describedby={err('subscriptions') ? 'va-subs-error' : undefined}>
            <legend>Event subscriptions</legend>
            <div className="checks">
              {EVENT_TYPES.map((t) => (
                <label key={t} title={EVENT_HELP[t]}>
                  <input
                    type="checkbox"
                    ref={t === EVENT_TYPES[0] ? field.ref : undefined}
                    checked={field.value.includes(t)}
                    onChange={(e) => field.onChange(e.target.checked ? [...field.value, t] : field.value.filter((s) => s !== t))}
                  />
                  <code>{t}</code>
                </label>
              ))}
            </div>
            {err('subscriptions') && (
              <p id="va-subs-error" className="field-error">
                {err('subscriptions')}
              </p>
            )}
          </fieldset>
        )}
      />
      <fieldset>
        <legend>Skills</legend>
        {!team && <p className="muted">Choose the team first.</p>}
        {team && team.skills.length === 0 && <p className="muted">The team has no skills; add them under Teams &amp; skills.</p>}
        <div className="checks">
          {team?.skills.map((s) => (
            <label key={s.id}>
              <input
                type="checkbox"
                checked={skills.includes(s.name)}
                onChange={(e) => setValue('skills', e.target.checked ? [...skills, s.name] : skills.filter((x) => x !== s.name))}
              />
              {s.name}
            </label>
          ))}
        </div>
        {err('skills') && <p className="field-error">{err('skills')}</p>}
      </fieldset>
      <KvRows
        id="va-attrs"
        legend="Custom attributes"
        rows={attrs}
        onChange={(rows) => setValue('custom_attributes', rows)}
        keyLabel="Attribute"
        addLabel="Add attribute"
        check={duplicateKey}
        serverError={(k) => fieldError(failure, `custom_attributes.${k}`)}
      />
      <div className="grid-2">
        <Field
          id="va-fallback-team"
          label="Fallback team (optional)"
          error={err('fallback_team_id')}
          hint={
            mode === 'pull'
              ? "Where the VA's chats go when it stops reading its events while they wait."
              : "Where the VA's chats go when its webhook keeps failing."
          }
        >
          <select {...described('va-fallback-team', { error: err('fallback_team_id'), hint: true })} {...register('fallback_team_id')}>
            <TeamOptions teams={teams} empty="None" />
          </select>
        </Field>
        <Field id="va-fallback-skill" label="Fallback skill (optional)" error={err('fallback_skill')}>
          <select
            {...described('va-fallback-skill', { error: err('fallback_skill') })}
            disabled={!fallbackTeam}
            {...register('fallback_skill')}
          >
            <option value="">The team&apos;s queue</option>
            {fallbackTeam?.skills.map((s) => (
              <option key={s.id} value={s.name}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="grid-2">
        <Field
          id="va-reply-timeout"
          label="Reply budget in seconds (optional)"
          error={err('reply_timeout_seconds')}
          hint="5 to 600. How long a customer may wait for the VA's reply (typing and a streamed reply pause it). Empty: off."
        >
          <input
            type="text"
            inputMode="numeric"
            {...described('va-reply-timeout', { error: err('reply_timeout_seconds'), hint: true })}
            {...register('reply_timeout_seconds')}
          />
        </Field>
        <Field
          id="va-reply-timeout-action"
          label="When the budget runs out"
          error={err('reply_timeout_action')}
          hint="Hand over goes to the fallback team, as when the webhook keeps failing."
        >
          <select
            {...described('va-reply-timeout-action', { error: err('reply_timeout_action'), hint: true })}
            {...register('reply_timeout_action')}
          >
            <option value="handover">Hand the chat over to the fallback team</option>
            <option value="notify">Count it and show it on this page only</option>
          </select>
        </Field>
      </div>
      <div className="grid-2">
        <Field
          id="va-turn-window"
          label="Turn window in ms (optional)"
          error={err('turn_window_ms')}
          hint="300 to 10000. A customer's burst of messages reaches the bot as one turn once they have been quiet this long (sooner when the widget says they stopped typing). Empty: off."
        >
          <input
            type="text"
            inputMode="numeric"
            {...described('va-turn-window', { error: err('turn_window_ms'), hint: true })}
            {...register('turn_window_ms')}
          />
        </Field>
        <Field
          id="va-turn-window-max"
          label="Longest turn in ms (optional)"
          error={err('turn_window_max_ms')}
          hint="300 to 30000, at least the window: a turn is never held longer from its first message. Empty: 10000."
        >
          <input
            type="text"
            inputMode="numeric"
            {...described('va-turn-window-max', { error: err('turn_window_max_ms'), hint: true })}
            {...register('turn_window_max_ms')}
          />
        </Field>
        <Field
          id="va-on-new-turn"
          label="When the customer writes during a reply"
          error={err('on_new_turn')}
          hint="Supersede withdraws the reply in progress and refuses replies to earlier turns (docs: Turns)."
        >
          <select {...described('va-on-new-turn', { error: err('on_new_turn'), hint: true })} {...register('on_new_turn')}>
            <option value="continue">Let the reply go on</option>
            <option value="supersede">Supersede the reply in progress</option>
          </select>
        </Field>
      </div>
      <div className="grid-2">
        <Field
          id="va-max-handovers"
          label="Handovers per chat"
          error={err('max_handovers_per_chat')}
          hint="1 to 20 (default 3). After this many handovers of one chat to people, the chat stays with people: it cannot be handed back to this VA, and the workspace says why."
        >
          <input
            type="text"
            inputMode="numeric"
            {...described('va-max-handovers', { error: err('max_handovers_per_chat'), hint: true })}
            {...register('max_handovers_per_chat')}
          />
        </Field>
        <Field
          id="va-person-request"
          label={'When the customer asks for a person'}
          error={err('person_request')}
          hint={
            'The widget always offers "Talk to a person". Fallback team: the chat goes to the fallback team (the chat\'s team queue without one). Bot: the bot gets handover.requested and decides.'
          }
        >
          <select {...described('va-person-request', { error: err('person_request'), hint: true })} {...register('person_request')}>
            <option value="fallback">Hand the chat to the fallback team</option>
            <option value="bot">Tell the bot (handover.requested)</option>
          </select>
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton pending={mutation.isPending}>{va ? 'Save changes' : 'Register Virtual Agent'}</SubmitButton>
      </div>
    </form>
  );
}
