import type { Metadata } from 'next';
import { ApiReference } from '../_reference/api-reference';

export const metadata: Metadata = { title: 'Bot API reference · VA Chat docs' };

export default function BotApiReference() {
  return <ApiReference url="/api/v1/openapi.json" title="Bot API reference" />;
}
