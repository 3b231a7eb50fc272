'use client';

import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { Field, FormError, SubmitButton, Switch } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { useToast } from '@/components/admin/toast';
import { useContractForm } from '@/components/admin/use-contract-form';
import { failureOf } from '@/components/shared/errors';
import { focusId } from '@/components/shared/focus';
import { type AdminTeam, createSkillBodySchema, type UpdateTeamBody, updateTeamBodySchema } from '@/contracts/admin/schemas/team';

type NameValues = { name: string };
const renameResolver = contractResolver(updateTeamBodySchema, (v: NameValues) => ({ name: v.name }), { name: 'the team name' });
const skillResolver = contractResolver(createSkillBodySchema, (v: NameValues) => ({ name: v.name }), { name: 'the skill name' });

/** One team: rename, auto-assign toggle, and its skills (add, remove). */
export function TeamCard({ team, isDefault }: { team: AdminTeam; isDefault: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const renameForm = useContractForm<NameValues, UpdateTeamBody>(renameResolver, { name: team.name });
  const skillForm = useContractForm<NameValues, z.output<typeof createSkillBodySchema>>(skillResolver, { name: '' });
  const refresh = () => {
    qc.invalidateQueries({ queryKey: keys.teams });
    qc.invalidateQueries({ queryKey: keys.skills });
  };
  const rename = tsr.teams.updateTeam.useMutation({
    onSuccess: (res) => {
      refresh();
      renameForm.reset({ name: res.body.response.name });
      toast.success(`Team renamed to ${res.body.response.name}.`);
    },
  });
  const autoAssign = tsr.teams.updateTeam.useMutation({
    onSuccess: (res) => {
      refresh();
      toast.success(`Auto-assign ${res.body.response.auto_assign ? 'on' : 'off'} for ${team.name}.`);
    },
    onError: (err) => toast.error(`Not saved: ${failureOf(err)?.description}`),
  });
  const addSkill = tsr.teams.addSkill.useMutation({
    onSuccess: (res) => {
      refresh();
      toast.success(`Skill ${res.body.response.name} added to ${team.name}.`);
      skillForm.reset({ name: '' });
    },
  });
  const removeSkill = tsr.teams.removeSkill.useMutation({
    onSuccess: () => {
      refresh();
      // The removed chip and its button are gone: continue from the skill input of the same team.
      focusId(`team-${team.id}-skill`);
      toast.success('Skill removed.');
    },
    onError: (err) => toast.error(`Skill not removed: ${failureOf(err)?.description}`),
  });
  const renameFailure = failureOf(rename.error);
  const skillFailure = failureOf(addSkill.error);
  const renameError = renameForm.messages(renameFailure)('name');
  const skillError = skillForm.messages(skillFailure)('name');
  const idp = `team-${team.id}`;
  const c = team.member_counts;

  return (
    <section className="card" aria-labelledby={`${idp}-title`}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 id={`${idp}-title`} style={{ margin: 0 }}>
          {team.name} {isDefault && <span className="badge badge-info">default team</span>}
        </h2>
        <div className="row">
          <span className="small">Auto-assign</span>
          <Switch
            on={team.auto_assign}
            pending={autoAssign.isPending}
            label={`Auto-assign chats in ${team.name}`}
            onToggle={() => autoAssign.mutate({ params: { id: team.id }, body: { auto_assign: !team.auto_assign } })}
          />
        </div>
      </div>
      <p className="muted small">
        ID {team.id} · {c.agent} agents, {c.manager} managers, {c.virtual_agent} Virtual Agents
      </p>
      <FormError failure={renameFailure ?? skillFailure} placed={['name']} />
      <div className="grid-2">
        <form onSubmit={renameForm.handleSubmit((body) => rename.mutate({ params: { id: team.id }, body }))} noValidate>
          <Field id={`${idp}-name`} label="Team name" error={renameError}>
            <div className="secret-row">
              <input {...renameForm.bind('name', `${idp}-name`, { failure: renameFailure })} />
              <SubmitButton pending={rename.isPending} className="btn">
                Rename
              </SubmitButton>
            </div>
          </Field>
        </form>
        <form onSubmit={skillForm.handleSubmit((body) => addSkill.mutate({ params: { id: team.id }, body }))} noValidate>
          <Field id={`${idp}-skill`} label="Add a skill" error={skillError}>
            <div className="secret-row">
              <input {...skillForm.bind('name', `${idp}-skill`, { failure: skillFailure })} placeholder="e.g. billing" />
              <SubmitButton pending={addSkill.isPending} className="btn" pendingText="Adding…">
                Add
              </SubmitButton>
            </div>
          </Field>
        </form>
      </div>
      <h3>Skills</h3>
      {team.skills.length === 0 && <p className="muted small">No skills.</p>}
      <ul className="chips" aria-label={`Skills of ${team.name}`}>
        {team.skills.map((s) => (
          <li key={s.id} className="chip">
            {s.name}
            <button
              type="button"
              aria-label={`Remove skill ${s.name}`}
              aria-disabled={removeSkill.isPending || undefined}
              onClick={() => {
                if (!removeSkill.isPending) removeSkill.mutate({ params: { id: team.id, skill_id: s.id } });
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
