'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, LoadState } from '@/components/admin/data-table';
import { Switch } from '@/components/admin/form';
import { Ident } from '@/components/admin/ident';
import { SecretValue } from '@/components/admin/secret-reveal';
import { keys, tsr } from '@/components/admin/shared/client';
import { useToast } from '@/components/admin/toast';
import { failureOf } from '@/components/shared/errors';
import { focusId } from '@/components/shared/focus';
import type { AdminUser } from '@/contracts/admin/schemas/user';
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

type Invite = { userId: number; name: string; url: string; email: string; expiresAt: string };

/** The invite link just made: shown once, with where focus returns after. */
function InviteReveal({ invite, onDone }: { invite: Invite; onDone: () => void }) {
  return (
    <section className="reveal" aria-labelledby="invite-title" data-testid="invite-reveal">
      <h2 id="invite-title" tabIndex={-1}>
        Invite link for {invite.name}
      </h2>
      <p className="reveal-warning">
        <strong>Copy it now: you will not see it again.</strong> Give it to {invite.name} only. It lets them set a password once and sign in
        to the agent workspace at /agent as {invite.email}; it expires {new Date(invite.expiresAt).toLocaleString()}.
      </p>
      <SecretValue id="revealed-invite-url" label="Invite link" value={invite.url} />
      <button type="button" className="btn" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function InviteButton({ user, onInvited }: { user: AdminUser; onInvited: (invite: Invite) => void }) {
  const toast = useToast();
  const invite = tsr.users.inviteUser.useMutation({
    onSuccess: (res) =>
      onInvited({
        userId: user.id,
        name: user.name,
        url: res.body.response.invite_url,
        email: res.body.response.email,
        expiresAt: res.body.response.expires_at,
      }),
    onError: (err) => toast.error(`No invite: ${failureOf(err)?.description}`),
  });
  return (
    <button
      type="button"
      id={`user-${user.id}-invite`}
      className="btn btn-small"
      disabled={invite.isPending}
      onClick={() => invite.mutate({ params: { id: user.id }, body: {} })}
    >
      Invite<span className="sr-only"> {user.name} to the workspace</span>
    </button>
  );
}

/** Agents or managers: the list with availability toggles, and the add and edit forms. */
export function PeopleTab({ kind }: { kind: 'agent' | 'manager' }) {
  const users = tsr.users.listUsers.useQuery({ queryKey: keys.users(kind), queryData: { query: { kind } } });
  const teams = tsr.teams.listTeams.useQuery({ queryKey: keys.teams });
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [invite, setInvite] = useState<Invite | null>(null);
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
      {invite && (
        <InviteReveal
          invite={invite}
          onDone={() => {
            setInvite(null);
            focusId(`user-${invite.userId}-invite`);
          }}
        />
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
              <span className="row">
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
                {/* An invite signs in with the person's email: without one there is nothing to offer yet. */}
                {u.email ? (
                  <InviteButton
                    user={u}
                    onInvited={(made) => {
                      setInvite(made);
                      focusId('invite-title');
                    }}
                  />
                ) : (
                  <span className="muted small" id={`user-${u.id}-no-email`}>
                    Add an email (Edit) to invite
                  </span>
                )}
              </span>
            ),
          },
        ]}
      />
    </div>
  );
}
