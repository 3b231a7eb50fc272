'use client';

import { useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { described, Field, FormError, SubmitButton, TeamOptions } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { useToast } from '@/components/admin/toast';
import { useContractForm } from '@/components/admin/use-contract-form';
import { failureOf, fieldError } from '@/components/shared/errors';
import {
  type AdminRoutingRule,
  type CreateRoutingRuleBody,
  createRoutingRuleBodySchema,
  updateRoutingRuleBodySchema,
} from '@/contracts/admin/schemas/routing';
import type { AdminTeam } from '@/contracts/admin/schemas/team';
import { ConditionRows, type CondRow, newCond, toConditions } from './conditions';

type Values = { name: string; team_id: string; skill: string; enabled: boolean; position: string; conditions: CondRow[] };

const LABELS = {
  name: 'the name',
  team_id: 'choose:the team',
  skill: 'the skill',
  position: 'the position',
  conditions: 'the conditions',
  'conditions.*.field': 'the condition field',
  'conditions.*.value': 'the condition value',
};

function toBody(v: Values) {
  return {
    name: v.name,
    team_id: v.team_id ? Number(v.team_id) : undefined,
    skill: v.skill || null,
    enabled: v.enabled,
    conditions: toConditions(v.conditions),
    ...(v.position.trim() === '' ? {} : { position: Number(v.position) }),
  };
}

const createResolver = contractResolver(createRoutingRuleBodySchema, toBody, LABELS);
const updateResolver = contractResolver(updateRoutingRuleBodySchema, toBody, LABELS);

/** Create or edit a routing rule; `onDone` gets the saved rule's id (none when cancelled). */
export function RuleForm({ rule, teams, onDone }: { rule?: AdminRoutingRule; teams: AdminTeam[]; onDone: (savedId?: number) => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const form = useContractForm<Values, CreateRoutingRuleBody>((rule ? updateResolver : createResolver) as typeof createResolver, {
    name: rule?.name ?? '',
    team_id: rule ? String(rule.team_id) : '',
    skill: rule?.skill ?? '',
    enabled: rule?.enabled ?? true,
    position: rule ? String(rule.position) : '',
    conditions: rule ? rule.conditions.map((c) => newCond(c.field, c.op, c.value)) : [newCond()],
  });
  const { register, control, handleSubmit, watch, setValue, formState } = form;
  const done = (msg: string, id: number) => {
    qc.invalidateQueries({ queryKey: keys.routingRules });
    toast.success(msg);
    onDone(id);
  };
  const create = tsr.routingRules.createRoutingRule.useMutation({
    onSuccess: (res) => done(`Rule ${res.body.response.name} created.`, res.body.response.id),
  });
  const update = tsr.routingRules.updateRoutingRule.useMutation({
    onSuccess: (res) => done(`Rule ${res.body.response.name} saved.`, res.body.response.id),
  });
  const mutation = rule ? update : create;
  const failure = failureOf(mutation.error);
  const err = form.messages(failure);
  const teamId = watch('team_id');
  const team = teams.find((t) => String(t.id) === teamId);

  const submit = handleSubmit((body) => {
    if (rule) update.mutate({ params: { id: rule.id }, body });
    else create.mutate({ body });
  });
  const condError = (i: number) => {
    const own = formState.errors.conditions?.[i] as { field?: { message?: string }; value?: { message?: string } } | undefined;
    return own?.field?.message ?? own?.value?.message ?? fieldError(failure, `conditions.${i}`);
  };
  const p = rule ? `rule-${rule.id}` : 'rule-new';
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={rule ? `Edit rule ${rule.name}` : 'New routing rule'}>
      <h2>{rule ? `Edit rule ${rule.name}` : 'New routing rule'}</h2>
      <FormError failure={failure} placed={['name', 'team_id', 'skill', 'position', 'conditions']} />
      {formState.errors.conditions?.message && (
        <p className="form-error" role="alert">
          {formState.errors.conditions.message}
        </p>
      )}
      <div className="grid-3">
        <Field id={`${p}-name`} label="Name" required error={err('name')}>
          <input {...described(`${p}-name`, { error: err('name'), required: true })} {...register('name')} />
        </Field>
        <Field id={`${p}-team`} label="Send to team" required error={err('team_id')}>
          <select
            {...described(`${p}-team`, { error: err('team_id'), required: true })}
            {...register('team_id', { onChange: () => setValue('skill', '') })}
          >
            <TeamOptions teams={teams} empty="Choose a team…" />
          </select>
        </Field>
        <Field id={`${p}-skill`} label="Skill" error={err('skill')}>
          <select {...described(`${p}-skill`, { error: err('skill') })} disabled={!team} {...register('skill')}>
            <option value="">None (team queue)</option>
            {team?.skills.map((s) => (
              <option key={s.id} value={s.name}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${p}-position`} label="Position" hint="Lower runs first; empty: last" error={err('position')}>
          <input {...described(`${p}-position`, { error: err('position'), hint: true })} type="number" min={0} {...register('position')} />
        </Field>
        <div className="field">
          <span className="checks" style={{ marginTop: '1.8rem' }}>
            <label>
              <input type="checkbox" {...register('enabled')} /> Enabled
            </label>
          </span>
        </div>
      </div>
      <Controller
        name="conditions"
        control={control}
        render={({ field }) => <ConditionRows rows={field.value} onChange={field.onChange} errorOf={condError} />}
      />
      <div className="form-actions">
        <SubmitButton pending={mutation.isPending}>{rule ? 'Save rule' : 'Create rule'}</SubmitButton>
        <button type="button" className="btn" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
