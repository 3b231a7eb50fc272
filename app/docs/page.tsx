import type { Metadata } from 'next';
import { GuidePage } from './_guide/guide-page';
import { loadGuidePage } from './_guide/load';

export const metadata: Metadata = { title: 'Build a bot · VA Chat docs' };

export default function DocsHome() {
  return <GuidePage slug="index" markdown={loadGuidePage('index')!} />;
}
