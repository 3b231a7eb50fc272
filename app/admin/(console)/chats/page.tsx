import type { Metadata } from 'next';
import { ChatsView } from '@/components/admin/chats/chats-view';

export const metadata: Metadata = { title: 'Chats' };

export default function ChatsPage() {
  return <ChatsView />;
}
