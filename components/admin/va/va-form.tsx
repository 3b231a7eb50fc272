'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { described, Field, FormError, SubmitButton, TeamOptions } from '@/components/admin/form';
import { duplicateKey, KvRows, rowsProblems, toRecord, toRows } from '@/components/admin/kv-rows';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf, fieldError } from '@/components/admin/lib/errors';
import { reveal } from '@/components/admin/lib/revealed-secrets';
import { checkUrlFormat } from '@/components/admin/lib/webhook-checks';
import { useToast } from '@/components/admin/toast';
import { EVENT_TYPES, type EventType } from '@/contracts/enums';
import type { AdminVirtualAgent } from '@/contracts/schemas/admin-virtual-agent';
import { headerProblem, WebhookFields } from './webhook-fields';

const PLACED = [
  'name',
  'description',
  'webhook_url',
  'webhook_headers',
  'subscriptions',
  'team_id',
  'skills',
  'custom_attributes',
  'fallback_team_id',
  'fallback_skill',
];

const EVENT_HELP: Record<EventType, string> = {
  'chat.assigned': 'a chat is assigned to the VA',
  'message.received': 'the customer writes in a chat of the VA',
  'chat.closed': 'a chat of the VA is closed',
  'chat.unassigned': 'a chat is taken away from the VA',
};

/** Registration (name and description are fixed once saved) and later edits of a Virtual Agent. */
export function VaForm({ va }: { va?: AdminVirtualAgent }) {
  const qc = useQueryClient();
  const router = useRouter();
  const toast = useToast();
  const teams = tsr.teams.listTeams.useQuery({ queryKey: keys.teams }).data?.body.response ?? [];
  const [name, setName] = useState(va?.name ?? '');
  const [description, setDescription] = useState(va?.description ?? '');
  const [url, setUrl] = useState(va?.webhook_url ?? '');
  const [headers, setHeaders] = useState(toRows(va?.webhook_headers));
  const [subs, setSubs] = useState<EventType[]>(va?.subscriptions ?? ['chat.assigned', 'message.received']);
  const [teamId, setTeamId] = useState(va ? String(va.team_id) : '');
  const [skills, setSkills] = useState<string[]>(va?.skills ?? []);
  const [attrs, setAttrs] = useState(toRows(va?.custom_attributes));
  const [fallbackTeamId, setFallbackTeamId] = useState(va?.fallback_team_id ? String(va.fallback_team_id) : '');
  const [fallbackSkill, setFallbackSkill] = useState(va?.fallback_skill ?? '');
  const [tried, setTried] = useState(false);

  const create = tsr.virtualAgents.createVirtualAgent.useMutation({
    onSuccess: (res) => {
      const created = res.body.response;
      reveal(created.id, { apiKey: created.api_key, signingSecret: created.signing_secret });
      qc.invalidateQueries({ queryKey: keys.virtualAgents });
      qc.invalidateQueries({ queryKey: keys.teams });
      toast.success(`${created.name} registered.`);
      router.push(`/admin/users/virtual-agents/${created.id}`);
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
  const err = (f: string) => fieldError(failure, f);

  const team = teams.find((t) => String(t.id) === teamId);
  const fallbackTeam = teams.find((t) => String(t.id) === fallbackTeamId);
  const local = {
    name: !va && !name.trim() ? 'Required' : null,
    description: !va && !description.trim() ? 'Required' : null,
    url: checkUrlFormat(url),
    team: teamId ? null : 'Choose the team of the Virtual Agent',
    subs: subs.length ? null : 'Choose at least one event',
    headers: rowsProblems(headers, headerProblem).length > 0,
    attrs: rowsProblems(attrs, duplicateKey).length > 0,
  };
  const show = (m: string | null) => (tried ? m : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (Object.values(local).some(Boolean)) return;
    const common = {
      webhook_url: url.trim(),
      webhook_headers: toRecord(headers),
      subscriptions: subs,
      team_id: Number(teamId),
      skills: skills.filter((s) => team?.skills.some((x) => x.name === s)),
      custom_attributes: toRecord(attrs),
      fallback_team_id: fallbackTeamId ? Number(fallbackTeamId) : null,
      fallback_skill: fallbackTeamId && fallbackSkill ? fallbackSkill : null,
    };
    if (va) update.mutate({ params: { id: va.id }, body: common });
    else create.mutate({ body: { ...common, name: name.trim(), description: description.trim() } });
  };

  const fixed = va ? 'Cannot be changed after saving.' : 'Required. It cannot be changed after saving.';
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={va ? 'Virtual Agent settings' : 'Add Virtual Agent'}>
      <FormError failure={failure} placed={PLACED} />
      {tried && Object.values(local).some(Boolean) && (
        <p className="form-error" role="alert">
          Check the fields marked below.
        </p>
      )}
      <div className="grid-2">
        <Field id="va-name" label="Name" required={!va} error={show(local.name) ?? err('name')} hint={fixed}>
          <input
            {...described('va-name', { error: show(local.name) ?? err('name'), hint: true, required: !va })}
            value={name}
            readOnly={!!va}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field
          id="va-team"
          label="Team"
          required
          error={show(local.team) ?? err('team_id')}
          hint="A Virtual Agent belongs to exactly one team."
        >
          <select
            {...described('va-team', { error: show(local.team) ?? err('team_id'), hint: true, required: true })}
            value={teamId}
            onChange={(e) => setTeamId(e.target.value)}
          >
            <TeamOptions teams={teams} empty="Choose a team…" />
          </select>
        </Field>
      </div>
      <Field id="va-description" label="Description" required={!va} error={show(local.description) ?? err('description')} hint={fixed}>
        <textarea
          {...described('va-description', { error: show(local.description) ?? err('description'), hint: true, required: !va })}
          value={description}
          readOnly={!!va}
          onChange={(e) => setDescription(e.target.value)}
        />
      </Field>
      <WebhookFields url={url} onUrl={setUrl} headers={headers} onHeaders={setHeaders} failure={failure} showErrors={tried} />
      <fieldset aria-describedby={show(local.subs) || err('subscriptions') ? 'va-subs-error' : undefined}>
        <legend>Event subscriptions</legend>
        <div className="checks">
          {EVENT_TYPES.map((t) => (
            <label key={t} title={EVENT_HELP[t]}>
              <input
                type="checkbox"
                checked={subs.includes(t)}
                onChange={(e) => setSubs(e.target.checked ? [...subs, t] : subs.filter((s) => s !== t))}
              />
              <code>{t}</code>
            </label>
          ))}
        </div>
        {(show(local.subs) ?? err('subscriptions')) && (
          <p id="va-subs-error" className="field-error">
            {show(local.subs) ?? err('subscriptions')}
          </p>
        )}
      </fieldset>
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
                onChange={(e) => setSkills(e.target.checked ? [...skills, s.name] : skills.filter((x) => x !== s.name))}
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
        onChange={setAttrs}
        keyLabel="Attribute"
        addLabel="Add attribute"
        check={duplicateKey}
        serverError={(k) => err(`custom_attributes.${k}`)}
      />
      <div className="grid-2">
        <Field
          id="va-fallback-team"
          label="Fallback team (optional)"
          error={err('fallback_team_id')}
          hint="Where the VA's chats go when its webhook keeps failing."
        >
          <select
            {...described('va-fallback-team', { error: err('fallback_team_id'), hint: true })}
            value={fallbackTeamId}
            onChange={(e) => setFallbackTeamId(e.target.value)}
          >
            <TeamOptions teams={teams} empty="None" />
          </select>
        </Field>
        <Field id="va-fallback-skill" label="Fallback skill (optional)" error={err('fallback_skill')}>
          <select
            {...described('va-fallback-skill', { error: err('fallback_skill') })}
            value={fallbackSkill}
            disabled={!fallbackTeam}
            onChange={(e) => setFallbackSkill(e.target.value)}
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
      <div className="form-actions">
        <SubmitButton pending={mutation.isPending}>{va ? 'Save changes' : 'Register Virtual Agent'}</SubmitButton>
      </div>
    </form>
  );
}
