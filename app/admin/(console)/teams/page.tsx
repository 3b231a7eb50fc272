import type { Metadata } from 'next';
import { TeamsView } from '@/components/admin/teams/teams-view';
import { TransferSetting } from '@/components/admin/teams/transfer-setting';

export const metadata: Metadata = { title: 'Teams & skills' };

export default function TeamsPage() {
  return (
    <>
      <TeamsView />
      <TransferSetting />
    </>
  );
}
