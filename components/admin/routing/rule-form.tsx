'use client';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { described, Field, FormError, SubmitButton, TeamOptions } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf, fieldError } from '@/components/admin/lib/errors';
import { useToast } from '@/components/admin/toast';
import type { AdminRoutingRule } from '@/contracts/schemas/admin-routing';
import type { AdminTeam } from '@/contracts/schemas/admin-team';
import { ConditionRows, newCond, toConditions } from './conditions';

/** Create or edit a routing rule. */
export function RuleForm({ rule, teams, onDone }: { rule?: AdminRoutingRule; teams: AdminTeam[]; onDone: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(rule?.name ?? '');
  const [teamId, setTeamId] = useState(rule ? String(rule.team_id) : '');
  const [skill, setSkill] = useState(rule?.skill ?? '');
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [position, setPosition] = useState(rule ? String(rule.position) : '');
  const [conds, setConds] = useState(rule ? rule.conditions.map((c) => newCond(c.field, c.op, c.value)) : [newCond()]);
  const done = (msg: string) => {
    qc.invalidateQueries({ queryKey: keys.routingRules });
    toast.success(msg);
    onDone();
  };
  const create = tsr.routingRules.createRoutingRule.useMutation({ onSuccess: () => done(`Rule ${name} created.`) });
  const update = tsr.routingRules.updateRoutingRule.useMutation({ onSuccess: () => done(`Rule ${name} saved.`) });
  const mutation = rule ? update : create;
  const failure = failureOf(mutation.error);
  const err = (f: string) => fieldError(failure, f);
  const team = teams.find((t) => String(t.id) === teamId);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const pos = position.trim() === '' ? undefined : Number(position);
    const body = {
      name: name.trim(),
      team_id: Number(teamId) || 0,
      skill: skill || null,
      enabled,
      conditions: toConditions(conds),
      ...(pos === undefined ? {} : { position: pos }),
    };
    if (rule) update.mutate({ params: { id: rule.id }, body });
    else create.mutate({ body });
  };
  const p = rule ? `rule-${rule.id}` : 'rule-new';
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={rule ? `Edit rule ${rule.name}` : 'New routing rule'}>
      <h2>{rule ? `Edit rule ${rule.name}` : 'New routing rule'}</h2>
      <FormError failure={failure} placed={['name', 'team_id', 'skill', 'position', 'conditions']} />
      <div className="grid-3">
        <Field id={`${p}-name`} label="Name" required error={err('name')}>
          <input
            {...described(`${p}-name`, { error: err('name'), required: true })}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field id={`${p}-team`} label="Send to team" required error={err('team_id')}>
          <select
            {...described(`${p}-team`, { error: err('team_id'), required: true })}
            value={teamId}
            onChange={(e) => {
              setTeamId(e.target.value);
              setSkill('');
            }}
          >
            <TeamOptions teams={teams} empty="Choose a team…" />
          </select>
        </Field>
        <Field id={`${p}-skill`} label="Skill" error={err('skill')}>
          <select
            {...described(`${p}-skill`, { error: err('skill') })}
            value={skill}
            disabled={!team}
            onChange={(e) => setSkill(e.target.value)}
          >
            <option value="">None (team queue)</option>
            {team?.skills.map((s) => (
              <option key={s.id} value={s.name}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${p}-position`} label="Position" hint="Lower runs first; empty: last" error={err('position')}>
          <input
            {...described(`${p}-position`, { error: err('position'), hint: true })}
            type="number"
            min={0}
            value={position}
            onChange={(e) => setPosition(e.target.value)}
          />
        </Field>
        <div className="field">
          <span className="checks" style={{ marginTop: '1.8rem' }}>
            <label>
              <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
            </label>
          </span>
        </div>
      </div>
      <ConditionRows
        rows={conds}
        onChange={setConds}
        errorOf={(i) => err(`conditions.${i}`) ?? err(`conditions.${i}.field`) ?? err(`conditions.${i}.value`)}
      />
      <div className="form-actions">
        <SubmitButton pending={mutation.isPending}>{rule ? 'Save rule' : 'Create rule'}</SubmitButton>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
