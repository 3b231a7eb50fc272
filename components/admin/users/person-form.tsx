'use client';

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { duplicateKey, KvRows, rowsProblems, toRecord, toRows } from '@/components/admin/kv-rows';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf, fieldError } from '@/components/admin/lib/errors';
import { useToast } from '@/components/admin/toast';
import type { AdminTeam } from '@/contracts/schemas/admin-team';
import type { AdminUser } from '@/contracts/schemas/admin-user';

type Kind = 'agent' | 'manager';

/** Create an agent or manager, or edit one (login ID and kind are fixed once created). */
export function PersonForm({ kind, user, teams, onDone }: { kind: Kind; user?: AdminUser; teams: AdminTeam[]; onDone: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [loginId, setLoginId] = useState(user?.login_id ?? '');
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [availability, setAvailability] = useState(user?.availability ?? 'unavailable');
  const [capacity, setCapacity] = useState(String(user?.capacity ?? 3));
  const [enabled, setEnabled] = useState(user?.enabled ?? true);
  const [teamIds, setTeamIds] = useState<number[]>(user?.team_ids ?? []);
  const [skillIds, setSkillIds] = useState<number[]>(user?.skills.map((s) => s.id) ?? []);
  const [attrs, setAttrs] = useState(toRows(user?.custom_attributes));

  const done = (verb: string) => {
    toast.success(`${name} ${verb}.`);
    qc.invalidateQueries({ queryKey: keys.users() });
    qc.invalidateQueries({ queryKey: keys.teams });
    onDone();
  };
  const create = tsr.users.createUser.useMutation({ onSuccess: () => done('added') });
  const update = tsr.users.updateUser.useMutation({ onSuccess: () => done('saved') });
  const mutation = user ? update : create;
  const failure = failureOf(mutation.error);
  const attrProblems = rowsProblems(attrs, duplicateKey);

  const toggle = (list: number[], id: number, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));
  const visibleSkills = teams.filter((t) => teamIds.includes(t.id)).flatMap((t) => t.skills.map((s) => ({ ...s, team: t.name })));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (attrProblems.length) return;
    const cap = Number(capacity);
    const common = {
      name: name.trim(),
      availability,
      capacity: Number.isInteger(cap) ? cap : -1,
      team_ids: teamIds,
      skill_ids: skillIds.filter((id) => visibleSkills.some((s) => s.id === id)),
      custom_attributes: toRecord(attrs),
    };
    if (user) update.mutate({ params: { id: user.id }, body: { ...common, email: email.trim() || null, enabled } });
    else create.mutate({ body: { ...common, kind, login_id: loginId.trim(), ...(email.trim() ? { email: email.trim() } : {}) } });
  };

  const err = (f: string) => fieldError(failure, f);
  const prefix = user ? `user-${user.id}` : `new-${kind}`;
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={user ? `Edit ${user.name}` : `Add ${kind}`}>
      <h2>{user ? `Edit ${user.name}` : `Add ${kind}`}</h2>
      <FormError
        failure={failure}
        placed={['login_id', 'name', 'email', 'capacity', 'availability', 'team_ids', 'skill_ids', 'custom_attributes']}
      />
      <div className="grid-2">
        <Field
          id={`${prefix}-login`}
          label="Login ID"
          required
          error={err('login_id')}
          hint={user ? 'Cannot be changed after saving.' : 'Chats name it in assignee.'}
        >
          <input
            {...described(`${prefix}-login`, { error: err('login_id'), hint: true, required: true })}
            value={loginId}
            readOnly={!!user}
            onChange={(e) => setLoginId(e.target.value)}
          />
        </Field>
        <Field id={`${prefix}-name`} label="Name" required error={err('name')}>
          <input
            {...described(`${prefix}-name`, { error: err('name'), required: true })}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field id={`${prefix}-email`} label="Email" error={err('email')}>
          <input
            {...described(`${prefix}-email`, { error: err('email') })}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field id={`${prefix}-capacity`} label="Capacity (chats at once)" error={err('capacity')}>
          <input
            {...described(`${prefix}-capacity`, { error: err('capacity') })}
            type="number"
            min={0}
            max={1000}
            value={capacity}
            onChange={(e) => setCapacity(e.target.value)}
          />
        </Field>
        <Field id={`${prefix}-availability`} label="Availability" error={err('availability')}>
          <select
            id={`${prefix}-availability`}
            value={availability}
            onChange={(e) => setAvailability(e.target.value as typeof availability)}
          >
            <option value="available">Available</option>
            <option value="unavailable">Unavailable</option>
          </select>
        </Field>
        {user && (
          <div className="field">
            <span className="checks">
              <label>
                <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
              </label>
            </span>
          </div>
        )}
      </div>
      <fieldset>
        <legend>Teams</legend>
        {teams.length === 0 && <p className="muted">No teams yet.</p>}
        <div className="checks">
          {teams.map((t) => (
            <label key={t.id}>
              <input
                type="checkbox"
                checked={teamIds.includes(t.id)}
                onChange={(e) => setTeamIds(toggle(teamIds, t.id, e.target.checked))}
              />
              {t.name}
            </label>
          ))}
        </div>
        {err('team_ids') && <p className="field-error">{err('team_ids')}</p>}
      </fieldset>
      <fieldset>
        <legend>Skills</legend>
        {visibleSkills.length === 0 && <p className="muted">Choose a team with skills first.</p>}
        <div className="checks">
          {visibleSkills.map((s) => (
            <label key={s.id}>
              <input
                type="checkbox"
                checked={skillIds.includes(s.id)}
                onChange={(e) => setSkillIds(toggle(skillIds, s.id, e.target.checked))}
              />
              {s.name} <span className="muted small">({s.team})</span>
            </label>
          ))}
        </div>
        {err('skill_ids') && <p className="field-error">{err('skill_ids')}</p>}
      </fieldset>
      <KvRows
        id={`${prefix}-attrs`}
        legend="Custom attributes"
        rows={attrs}
        onChange={setAttrs}
        keyLabel="Attribute"
        addLabel="Add attribute"
        check={duplicateKey}
        serverError={(k) => fieldError(failure, `custom_attributes.${k}`)}
      />
      <div className="form-actions">
        <SubmitButton pending={mutation.isPending}>{user ? 'Save changes' : `Add ${kind}`}</SubmitButton>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
