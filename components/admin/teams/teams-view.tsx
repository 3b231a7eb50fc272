'use client';

import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { described, Field, FormError, SubmitButton, TeamOptions } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { useToast } from '@/components/admin/toast';
import { useContractForm } from '@/components/admin/use-contract-form';
import { failureOf } from '@/components/shared/errors';
import { focusId } from '@/components/shared/focus';
import { createTeamBodySchema } from '@/contracts/admin/schemas/team';
import { TeamCard } from './team-card';

type NewTeamValues = { name: string; skills: string; auto_assign: boolean };
const newTeamResolver = contractResolver(
  createTeamBodySchema,
  (v: NewTeamValues) => {
    const list = v.skills
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return { name: v.name, auto_assign: v.auto_assign, ...(list.length ? { skills: list } : {}) };
  },
  { name: 'the team name', skills: 'the skills' },
);

function NewTeam() {
  const qc = useQueryClient();
  const toast = useToast();
  const { register, handleSubmit, reset, messages } = useContractForm<NewTeamValues, z.output<typeof createTeamBodySchema>>(
    newTeamResolver,
    {
      name: '',
      skills: '',
      auto_assign: false,
    },
  );
  const create = tsr.teams.createTeam.useMutation({
    onSuccess: (res) => {
      qc.invalidateQueries({ queryKey: keys.teams });
      toast.success(`Team ${res.body.response.name} created.`);
      // Continue from the new team's card, where its skills are added.
      focusId(`team-${res.body.response.id}-title`);
      reset();
    },
  });
  const failure = failureOf(create.error);
  const err = messages(failure);
  return (
    <form className="card" onSubmit={handleSubmit((body) => create.mutate({ body }))} noValidate aria-label="New team">
      <h2>New team</h2>
      <FormError failure={failure} placed={['name', 'skills']} />
      <div className="grid-3">
        <Field id="new-team-name" label="Name" required error={err('name')}>
          <input {...described('new-team-name', { error: err('name'), required: true })} {...register('name')} />
        </Field>
        <Field id="new-team-skills" label="Skills" hint="Comma-separated, optional" error={err('skills')}>
          <input {...described('new-team-skills', { error: err('skills'), hint: true })} {...register('skills')} />
        </Field>
        <div className="field">
          <span className="checks" style={{ marginTop: '1.8rem' }}>
            <label>
              <input type="checkbox" {...register('auto_assign')} /> Auto-assign to available members
            </label>
          </span>
        </div>
      </div>
      <SubmitButton pending={create.isPending}>Create team</SubmitButton>
    </form>
  );
}

/** The team that takes chats no routing rule matched. */
function DefaultTeam({ current }: { current: number | null }) {
  const qc = useQueryClient();
  const toast = useToast();
  const teams = tsr.teams.listTeams.useQuery({ queryKey: keys.teams }).data?.body.response ?? [];
  const set = tsr.routingRules.setDefaultTeam.useMutation({
    onSuccess: (res) => {
      qc.invalidateQueries({ queryKey: keys.me });
      toast.success(`Default team: ${res.body.response.team_name ?? 'the oldest team'}.`);
    },
    onError: (err) => toast.error(`Not saved: ${failureOf(err)?.description}`),
  });
  return (
    <div className="field" style={{ maxWidth: 360 }}>
      <label htmlFor="default-team">Default team</label>
      <select
        id="default-team"
        aria-describedby="default-team-hint"
        value={current ?? ''}
        disabled={set.isPending}
        onChange={(e) => set.mutate({ body: { team_id: e.target.value ? Number(e.target.value) : null } })}
      >
        <TeamOptions teams={teams} empty="The oldest team" />
      </select>
      <p id="default-team-hint" className="hint">
        {set.isPending ? 'Saving…' : 'Takes the chats that no routing rule matched.'}
      </p>
    </div>
  );
}

export function TeamsView() {
  const teams = tsr.teams.listTeams.useQuery({ queryKey: keys.teams });
  const me = tsr.session.me.useQuery({ queryKey: keys.me });
  const defaultTeam = me.data?.body.response.account.default_team_id ?? null;
  const list = teams.data?.body.response ?? [];
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Teams &amp; skills</h1>
          <p className="muted">Chats wait in a team&apos;s queue, optionally for a skill. Keep Virtual Agents in a team of their own.</p>
        </div>
        {me.data && <DefaultTeam current={defaultTeam} />}
      </div>
      <NewTeam />
      {teams.isPending && <p className="muted">Loading…</p>}
      {teams.error && <p className="form-error">Could not load: {failureOf(teams.error)?.description}</p>}
      {list.map((t) => (
        <TeamCard key={t.id} team={t} isDefault={t.id === defaultTeam} />
      ))}
      <p className="muted small">Teams cannot be deleted; rename one to reuse it.</p>
    </>
  );
}
