'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '@/components/admin/confirm-dialog';
import { type Column, DataTable, LoadState } from '@/components/admin/data-table';
import { Switch } from '@/components/admin/form';
import { keys, tsr } from '@/components/admin/shared/client';
import { useToast } from '@/components/admin/toast';
import { failureOf } from '@/components/shared/errors';
import { focusId } from '@/components/shared/focus';
import type { AdminRoutingRule } from '@/contracts/admin/schemas/routing';
import { RuleForm } from './rule-form';

function describeCondition(c: AdminRoutingRule['conditions'][number]) {
  return `${c.field} ${c.op.replace('_', ' ')} ${Array.isArray(c.value) ? `[${c.value.join(', ')}]` : `"${c.value}"`}`;
}

/** The headers; each RuleRow draws its own cells. */
const RULE_COLUMNS: Column<AdminRoutingRule>[] = [
  { header: 'Position', className: 'num' },
  { header: 'Name' },
  { header: 'Conditions' },
  { header: 'Team' },
  { header: 'Enabled' },
  { header: <span className="sr-only">Actions</span> },
];

function RuleRow({ rule, onEdit }: { rule: AdminRoutingRule; onEdit: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const onError = (err: unknown) => toast.error(`Not saved: ${failureOf(err)?.description}`);
  const toggle = tsr.routingRules.updateRoutingRule.useMutation({
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.routingRules }),
    onError,
  });
  const remove = tsr.routingRules.deleteRoutingRule.useMutation({
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: keys.routingRules });
      toast.success(`Rule ${rule.name} deleted.`);
      focusId('routing-title');
    },
    onError,
  });
  return (
    <tr>
      <td className="num">{rule.position}</td>
      <td>{rule.name}</td>
      <td className="small">{rule.conditions.length ? rule.conditions.map(describeCondition).join(' and ') : <em>every chat</em>}</td>
      <td>
        {rule.team_name}
        {rule.skill && <div className="muted small">skill {rule.skill}</div>}
      </td>
      <td>
        <Switch
          on={rule.enabled}
          pending={toggle.isPending}
          label={`Rule ${rule.name} enabled`}
          onToggle={() => toggle.mutate({ params: { id: rule.id }, body: { enabled: !rule.enabled } })}
        />
      </td>
      <td>
        <div className="row">
          <button type="button" className="btn btn-small" id={`rule-${rule.id}-edit`} onClick={onEdit}>
            Edit<span className="sr-only"> {rule.name}</span>
          </button>
          <ConfirmButton
            className="btn btn-small btn-danger"
            title={`Delete rule ${rule.name}?`}
            warning={<p>Chats no longer match it. This cannot be undone.</p>}
            confirm={
              <>
                Confirm delete<span className="sr-only"> {rule.name}</span>
              </>
            }
            pending={remove.isPending}
            pendingText="Deleting…"
            onConfirm={() => remove.mutate({ params: { id: rule.id } })}
          >
            Delete<span className="sr-only"> {rule.name}</span>
          </ConfirmButton>
        </div>
      </td>
    </tr>
  );
}

export function RoutingView() {
  const rules = tsr.routingRules.listRoutingRules.useQuery({ queryKey: keys.routingRules });
  const teams = tsr.teams.listTeams.useQuery({ queryKey: keys.teams }).data?.body.response ?? [];
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const list = rules.data?.body.response ?? [];
  const current = list.find((r) => r.id === editing);
  return (
    <>
      <div className="page-head">
        <div>
          <h1 id="routing-title" tabIndex={-1}>
            Routing rules
          </h1>
          <p className="muted">A chat created without a team or assignee goes to the team of the first enabled rule that matches.</p>
        </div>
        <button
          type="button"
          id="new-rule"
          className="btn btn-primary"
          aria-expanded={editing === 'new'}
          onClick={() => {
            setEditing('new');
            focusId('rule-new-name');
          }}
        >
          New rule
        </button>
      </div>
      {editing === 'new' && (
        <RuleForm
          teams={teams}
          onDone={(saved) => {
            setEditing(null);
            focusId(saved ? `rule-${saved}-edit` : 'new-rule');
          }}
        />
      )}
      {current && (
        <RuleForm
          key={current.id}
          rule={current}
          teams={teams}
          onDone={() => {
            setEditing(null);
            focusId(`rule-${current.id}-edit`);
          }}
        />
      )}
      <LoadState query={rules} />
      <DataTable
        label="Routing rules"
        rows={rules.data?.body.response}
        empty="No rules: chats go to the default team."
        columns={RULE_COLUMNS}
        renderRow={(r) => (
          <RuleRow
            key={r.id}
            rule={r}
            onEdit={() => {
              setEditing(r.id);
              focusId(`rule-${r.id}-name`);
            }}
          />
        )}
      />
    </>
  );
}
