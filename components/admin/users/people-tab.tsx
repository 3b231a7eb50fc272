'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { focusId } from '@/components/admin/focus';
import { Switch } from '@/components/admin/form';
import { Ident } from '@/components/admin/ident';
import { keys, tsr } from '@/components/admin/lib/client';
import { failureOf } from '@/components/admin/lib/errors';
import { TableRegion } from '@/components/admin/table-region';
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
      {users.isPending && <p className="muted">Loading…</p>}
      {users.error && <p className="form-error">Could not load: {failureOf(users.error)?.description}</p>}
      {users.data && list.length === 0 && <p className="muted">No {label}s yet.</p>}
      {list.length > 0 && (
        <TableRegion label={`${label[0].toUpperCase()}${label.slice(1)}s`}>
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Login ID</th>
                <th>Teams</th>
                <th>Skills</th>
                <th className="num">Capacity</th>
                <th>Available</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((u) => (
                <tr key={u.id}>
                  <td>
                    {u.name} {!u.enabled && <span className="badge">disabled</span>}
                    {u.email && <div className="muted small">{u.email}</div>}
                  </td>
                  <td>
                    <Ident value={u.login_id} className="id-cell" />
                  </td>
                  <td>{u.team_ids.map(teamName).join(', ') || '—'}</td>
                  <td>{u.skills.map((s) => s.name).join(', ') || '—'}</td>
                  <td className="num">{u.capacity}</td>
                  <td>
                    <AvailabilitySwitch user={u} />
                  </td>
                  <td>
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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </div>
  );
}
