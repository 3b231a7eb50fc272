'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';

/** The console header's "Find by id": any id a bot developer quotes opens the trace page. */
export function TraceSearch() {
  const router = useRouter();
  const [id, setId] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = id.trim();
    if (value) router.push(`/admin/trace?id=${encodeURIComponent(value)}`);
  };
  return (
    <search className="trace-search" aria-label="Find by id">
      <form onSubmit={submit}>
        <label htmlFor="trace-id" className="sr-only">
          Find by id: chat ID, alias ID, transid, transaction_id, trxid or Idempotency-Key
        </label>
        <input
          id="trace-id"
          type="search"
          placeholder="Find by id (chat, transid, trxid…)"
          value={id}
          maxLength={255}
          onChange={(e) => setId(e.target.value)}
        />
        <button type="submit" className="btn btn-small">
          Find
        </button>
      </form>
    </search>
  );
}
