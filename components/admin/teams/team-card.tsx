'use client';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { described, Field, FormError, SubmitButton, Switch } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf, fieldError } from '@/components/admin/lib/errors';
import { useToast } from '@/components/admin/toast';
import type { AdminTeam } from '@/contracts/schemas/admin-team';

/** One team: rename, auto-assign toggle, and its skills (add, remove). */
export function TeamCard({ team, isDefault }: { team: AdminTeam; isDefault: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(team.name);
  const [skill, setSkill] = useState('');
  const refresh = () => {
    qc.invalidateQueries({ queryKey: keys.teams });
    qc.invalidateQueries({ queryKey: keys.skills });
  };
  const rename = tsr.teams.updateTeam.useMutation({
    onSuccess: () => {
      refresh();
      toast.success(`Team renamed to ${name}.`);
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
    onSuccess: () => {
      refresh();
      toast.success(`Skill ${skill} added to ${team.name}.`);
      setSkill('');
    },
  });
  const removeSkill = tsr.teams.removeSkill.useMutation({
    onSuccess: () => {
      refresh();
      toast.success('Skill removed.');
    },
    onError: (err) => toast.error(`Skill not removed: ${failureOf(err)?.description}`),
  });
  const failure = failureOf(rename.error ?? addSkill.error);
  const idp = `team-${team.id}`;

  const submitName = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate({ params: { id: team.id }, body: { name: name.trim() } });
  };
  const submitSkill = (e: FormEvent) => {
    e.preventDefault();
    addSkill.mutate({ params: { id: team.id }, body: { name: skill.trim() } });
  };
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
      <FormError failure={failure} placed={['name']} />
      <div className="grid-2">
        <form onSubmit={submitName} noValidate>
          <Field id={`${idp}-name`} label="Team name" error={fieldError(rename.error ? failure : null, 'name')}>
            <div className="secret-row">
              <input
                {...described(`${idp}-name`, { error: fieldError(rename.error ? failure : null, 'name') })}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
              <SubmitButton pending={rename.isPending} className="btn" disabled={name.trim() === team.name}>
                Rename
              </SubmitButton>
            </div>
          </Field>
        </form>
        <form onSubmit={submitSkill} noValidate>
          <Field id={`${idp}-skill`} label="Add a skill" error={fieldError(addSkill.error ? failure : null, 'name')}>
            <div className="secret-row">
              <input
                {...described(`${idp}-skill`, { error: fieldError(addSkill.error ? failure : null, 'name') })}
                value={skill}
                placeholder="e.g. billing"
                onChange={(e) => setSkill(e.target.value)}
              />
              <SubmitButton pending={addSkill.isPending} className="btn" pendingText="Adding…" disabled={!skill.trim()}>
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
              disabled={removeSkill.isPending}
              onClick={() => removeSkill.mutate({ params: { id: team.id, skill_id: s.id } })}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
