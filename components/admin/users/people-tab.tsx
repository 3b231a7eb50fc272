'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, LoadState } from '@/components/admin/data-table';
import { focusId } from '@/components/admin/focus';
import { Switch } from '@/components/admin/form';
import { Ident } from '@/components/admin/ident';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf } from '@/components/admin/lib/errors';
import { useToast } from '@/components/admin/toast';
import type { AdminUser } from '@/contracts/schemas/admin-user';
import { PersonForm } from './person-form';

function AvailabilitySwitch({ user }: { user: AdminUser }) {
  const qc = useQueryClient();
  const toast = useToast();
  const update = tsr.users.updateUser.useMutation({
    onSuccess: (res) => {
      toast.success(`${user.name} is now ${res.body.response.availability}.`);
      qc.invalidateQueries({ queryKey: keys.users() });
    },
    onError: (err) => toast.error(`Not saved: ${failureOf(err)?.description}`),
  });
  const on = user.availability === 'available';
  return (
    <Switch
      on={on}
      pending={update.isPending}
      label={`${user.name} available`}
      onToggle={() => update.mutate({ params: { id: user.id }, body: { availability: on ? 'unavailable' : 'available' } })}
    />
  );
}

/** Agents or managers: the list with availability toggles, and the add and edit forms. */
export function PeopleTab({ kind }: { kind: 'agent' | 'manager' }) {
  const users = tsr.users.listUsers.useQuery({ queryKey: keys.users(kind), queryData: { query: { kind } } });
  const teams = tsr.teams.listTeams.useQuery({ queryKey: keys.teams });
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const teamList = teams.data?.body.response ?? [];
  const teamName = (id: number) => teamList.find((t) => t.id === id)?.name ?? `#${id}`;
  const list = users.data?.body.response ?? [];
  const label = kind === 'agent' ? 'agent' : 'manager';

  return (
    <div>
      <div className="row" style={{ marginBottom: '1rem' }}>
        <button
          type="button"
          id={`add-${kind}`}
          className="btn btn-primary"
          aria-expanded={editing === 'new'}
          onClick={() => {
            setEditing('new');
            focusId(`new-${kind}-login`);
          }}
        >
          Add {label}
        </button>
      </div>
      {editing === 'new' && (
        <PersonForm
          kind={kind}
          teams={teamList}
          onDone={(saved) => {
            setEditing(null);
            // The new person's row once the list has it; back to the opener when cancelled.
            focusId(saved ? `user-${saved}-edit` : `add-${kind}`);
          }}
        />
      )}
      {typeof editing === 'number' && (
        <div>
          {list
            .filter((u) => u.id === editing)
            .map((u) => (
              <PersonForm
                key={u.id}
                kind={kind}
                user={u}
                teams={teamList}
                onDone={() => {
                  setEditing(null);
                  focusId(`user-${u.id}-edit`);
                }}
              />
            ))}
        </div>
      )}
      <LoadState query={users} />
      <DataTable
        label={`${label[0].toUpperCase()}${label.slice(1)}s`}
        rows={users.data?.body.response}
        rowKey={(u) => u.id}
        empty={`No ${label}s yet.`}
        columns={[
          {
            header: 'Name',
            cell: (u) => (
              <>
                {u.name} {!u.enabled && <span className="badge">disabled</span>}
                {u.email && <div className="muted small">{u.email}</div>}
              </>
            ),
          },
          { header: 'Login ID', cell: (u) => <Ident value={u.login_id} className="id-cell" /> },
          { header: 'Teams', cell: (u) => u.team_ids.map(teamName).join(', ') || '—' },
          { header: 'Skills', cell: (u) => u.skills.map((s) => s.name).join(', ') || '—' },
          { header: 'Capacity', className: 'num', cell: (u) => u.capacity },
          { header: 'Available', cell: (u) => <AvailabilitySwitch user={u} /> },
          {
            header: <span className="sr-only">Actions</span>,
            cell: (u) => (
              <button
                type="button"
                id={`user-${u.id}-edit`}
                className="btn btn-small"
                onClick={() => {
                  setEditing(u.id);
                  focusId(`user-${u.id}-name`);
                }}
              >
                Edit<span className="sr-only"> {u.name}</span>
              </button>
            ),
          },
        ]}
      />
    </div>
  );
}
