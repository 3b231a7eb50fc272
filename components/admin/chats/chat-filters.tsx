'use client';

import { asOptions, FilterRow, FilterSelect } from '@/components/admin/filter-row';
import { Field } from '@/components/admin/form';
import { contractResolver } from '@/components/admin/shared/form-words';
import { useContractForm } from '@/components/admin/use-contract-form';
import { listAdminChatsQuerySchema } from '@/contracts/admin/schemas/chat';
import type { AdminTeam } from '@/contracts/admin/schemas/team';
import type { AdminUser } from '@/contracts/admin/schemas/user';
import { CHANNELS, CHAT_STATUSES } from '@/contracts/enums';

type Typed = { q: string; tag: string };
const typedSchema = listAdminChatsQuerySchema.pick({ q: true, tag: true });
const resolver = contractResolver(
  typedSchema,
  (v: Typed) => ({ ...(v.q.trim() ? { q: v.q } : {}), ...(v.tag.trim() ? { tag: v.tag.trim() } : {}) }),
  { q: 'the search', tag: 'the tag' },
);

export type ChatFilters = { status?: string; channel?: string; team_id?: string; assignee?: string; tag?: string; q?: string };

/** Filters apply as they change; the text search and the tag apply on Enter or Search. */
export function ChatFiltersForm({
  value,
  onChange,
  teams,
  users,
}: {
  value: ChatFilters;
  onChange: (f: ChatFilters) => void;
  teams: AdminTeam[];
  users: AdminUser[];
}) {
  const form = useContractForm<Typed, { q?: string; tag?: string }>(resolver, { q: value.q ?? '', tag: value.tag ?? '' });
  const err = form.messages(null);
  const set = (patch: ChatFilters) => onChange({ ...value, ...patch });
  const submit = form.handleSubmit((typed) => set({ q: typed.q, tag: typed.tag }));
  const select = (id: 'status' | 'channel' | 'team_id' | 'assignee', label: string, options: { value: string; label: string }[]) => (
    <FilterSelect
      id={`f-${id}`}
      label={label}
      value={value[id] ?? ''}
      onChange={(e) => set({ [id]: e.target.value || undefined })}
      options={options}
    />
  );
  return (
    <FilterRow
      label="Search chats"
      onSubmit={submit}
      actions={
        <>
          <button type="submit" className="btn btn-primary">
            Search
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => {
              form.reset({ q: '', tag: '' });
              onChange({});
            }}
          >
            Clear
          </button>
        </>
      }
    >
      <Field id="f-q" className="filters-q" label="Search" error={err('q')}>
        <input {...form.bind('q', 'f-q', { failure: null })} type="search" placeholder="Chat ID, alias ID or customer" />
      </Field>
      {select('status', 'Status', asOptions(CHAT_STATUSES))}
      {select('channel', 'Channel', asOptions(CHANNELS))}
      {select(
        'team_id',
        'Team',
        teams.map((t) => ({ value: String(t.id), label: t.name })),
      )}
      {select(
        'assignee',
        'Assignee',
        users.map((u) => ({ value: u.login_id, label: `${u.name} (${u.kind.replace('_', ' ')})` })),
      )}
      <Field id="f-tag" label="Tag" error={err('tag')}>
        <input {...form.bind('tag', 'f-tag', { failure: null })} />
      </Field>
    </FilterRow>
  );
}
