'use client';

import { useQueryClient } from '@tanstack/react-query';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { duplicateKey, type KvRow, KvRows, rowsProblems, toRecord, toRows } from '@/components/admin/kv-rows';
import { keys, tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { useToast } from '@/components/admin/toast';
import { useContractForm } from '@/components/admin/use-contract-form';
import { failureOf, fieldError } from '@/components/shared/errors';
import type { AdminTeam } from '@/contracts/admin/schemas/team';
import { type AdminUser, type CreateUserBody, createUserBodySchema, updateUserBodySchema } from '@/contracts/admin/schemas/user';

type Kind = 'agent' | 'manager';

type Values = {
  kind: Kind;
  login_id: string;
  name: string;
  email: string;
  availability: 'available' | 'unavailable';
  capacity: string;
  enabled: boolean;
  team_ids: number[];
  skill_ids: number[];
  custom_attributes: KvRow[];
};

const LABELS = {
  login_id: 'the login ID',
  name: 'the name',
  email: 'the email',
  capacity: 'the capacity',
  availability: 'the availability',
  team_ids: 'the teams',
  skill_ids: 'the skills',
  custom_attributes: 'the custom attributes',
};

function common(v: Values) {
  return {
    name: v.name,
    availability: v.availability,
    capacity: v.capacity.trim() === '' ? undefined : Number(v.capacity),
    team_ids: v.team_ids,
    skill_ids: v.skill_ids,
    custom_attributes: toRecord(v.custom_attributes),
  };
}
const createResolver = contractResolver(
  createUserBodySchema,
  (v: Values) => ({ ...common(v), kind: v.kind, login_id: v.login_id, ...(v.email.trim() ? { email: v.email } : {}) }),
  LABELS,
);
const updateResolver = contractResolver(
  updateUserBodySchema,
  (v: Values) => ({ ...common(v), email: v.email.trim() ? v.email : null, enabled: v.enabled }),
  LABELS,
);

/** Create an agent or manager, or edit one (login ID and kind are fixed once created). */
export function PersonForm({
  kind,
  user,
  teams,
  onDone,
}: {
  kind: Kind;
  user?: AdminUser;
  teams: AdminTeam[];
  onDone: (savedId?: number) => void;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const { register, handleSubmit, watch, setValue, messages } = useContractForm<Values, CreateUserBody>(
    (user ? updateResolver : createResolver) as typeof createResolver,
    {
      kind,
      login_id: user?.login_id ?? '',
      name: user?.name ?? '',
      email: user?.email ?? '',
      availability: user?.availability ?? 'unavailable',
      capacity: String(user?.capacity ?? 3),
      enabled: user?.enabled ?? true,
      team_ids: user?.team_ids ?? [],
      skill_ids: user?.skills.map((s) => s.id) ?? [],
      custom_attributes: toRows(user?.custom_attributes),
    },
  );
  const [teamIds, skillIds, attrs] = watch(['team_ids', 'skill_ids', 'custom_attributes']);

  const done = ({ id, name }: { id: number; name: string }, verb: string) => {
    toast.success(`${name} ${verb}.`);
    qc.invalidateQueries({ queryKey: keys.users() });
    qc.invalidateQueries({ queryKey: keys.teams });
    onDone(id);
  };
  const create = tsr.users.createUser.useMutation({ onSuccess: (res) => done(res.body.response, 'added') });
  const update = tsr.users.updateUser.useMutation({ onSuccess: (res) => done(res.body.response, 'saved') });
  const mutation = user ? update : create;
  const failure = failureOf(mutation.error);
  const attrProblems = rowsProblems(attrs, duplicateKey);

  const toggle = (list: number[], id: number, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));
  const visibleSkills = teams.filter((t) => teamIds.includes(t.id)).flatMap((t) => t.skills.map((s) => ({ ...s, team: t.name })));

  const submit = handleSubmit((body) => {
    if (attrProblems.length) return;
    const skill_ids = (body.skill_ids ?? []).filter((id) => visibleSkills.some((s) => s.id === id));
    if (user) {
      const { kind: _k, login_id: _l, ...changes } = body;
      update.mutate({ params: { id: user.id }, body: { ...changes, skill_ids } });
    } else create.mutate({ body: { ...body, skill_ids } });
  });

  const err = messages(failure);
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
            readOnly={!!user}
            {...register('login_id')}
          />
        </Field>
        <Field id={`${prefix}-name`} label="Name" required error={err('name')}>
          <input {...described(`${prefix}-name`, { error: err('name'), required: true })} {...register('name')} />
        </Field>
        <Field id={`${prefix}-email`} label="Email" error={err('email')}>
          <input {...described(`${prefix}-email`, { error: err('email') })} type="email" {...register('email')} />
        </Field>
        <Field id={`${prefix}-capacity`} label="Capacity (chats at once)" error={err('capacity')}>
          <input
            {...described(`${prefix}-capacity`, { error: err('capacity') })}
            type="number"
            min={0}
            max={1000}
            {...register('capacity')}
          />
        </Field>
        <Field id={`${prefix}-availability`} label="Availability" error={err('availability')}>
          <select id={`${prefix}-availability`} {...register('availability')}>
            <option value="available">Available</option>
            <option value="unavailable">Unavailable</option>
          </select>
        </Field>
        {user && (
          <div className="field">
            <span className="checks">
              <label>
                <input type="checkbox" {...register('enabled')} /> Enabled
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
                onChange={(e) => setValue('team_ids', toggle(teamIds, t.id, e.target.checked))}
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
                onChange={(e) => setValue('skill_ids', toggle(skillIds, s.id, e.target.checked))}
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
        onChange={(rows) => setValue('custom_attributes', rows)}
        keyLabel="Attribute"
        addLabel="Add attribute"
        check={duplicateKey}
        serverError={(k) => fieldError(failure, `custom_attributes.${k}`)}
      />
      <div className="form-actions">
        <SubmitButton pending={mutation.isPending}>{user ? 'Save changes' : `Add ${kind}`}</SubmitButton>
        <button type="button" className="btn" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
