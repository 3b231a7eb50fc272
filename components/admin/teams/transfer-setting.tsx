'use client';

import { useQueryClient } from '@tanstack/react-query';
import { keys, tsr } from '@/components/admin/shared/client';
import { useToast } from '@/components/admin/toast';
import { failureOf } from '@/components/shared/errors';

/**
 * The account's transfer setting: whether its bots may hand chats over with the transfer
 * operation. Everyone sees it; only a platform administrator gets the switch.
 */
export function TransferSetting() {
  const qc = useQueryClient();
  const toast = useToast();
  const me = tsr.session.me.useQuery({ queryKey: keys.me });
  const save = tsr.accounts.updateAccount.useMutation({
    onSuccess: (res) => {
      qc.invalidateQueries({ queryKey: keys.me });
      toast.success(`Transfers by bots ${res.body.response.transfer_enabled ? 'enabled' : 'disabled'}.`);
    },
    onError: (err) => toast.error(`Not saved: ${failureOf(err)?.description}`),
  });
  const profile = me.data?.body.response;
  if (!profile) return null;
  const on = profile.account.transfer_enabled;
  return (
    <section className="card" aria-label="Transfer setting">
      <p>
        Transfers by bots: <strong data-testid="transfer-state">{on ? 'enabled' : 'disabled'}</strong>
      </p>
      <p className="hint">
        {on
          ? 'Bots may hand chats over to a team or skill (PATCH /api/v1/internal/chats).'
          : 'Bots asking to transfer a chat are refused with 2042.'}{' '}
        {!profile.is_platform_admin && 'Only the platform administrator can change this.'}
      </p>
      {profile.is_platform_admin && (
        <button
          type="button"
          className="btn"
          disabled={save.isPending}
          onClick={() => save.mutate({ params: { id: profile.account.id }, body: { transfer_enabled: !on } })}
        >
          {on ? 'Disable transfers' : 'Enable transfers'}
        </button>
      )}
    </section>
  );
}
