import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { GuidePage } from '../../_guide/guide-page';
import { loadGuidePage } from '../../_guide/load';
import { GUIDE_PAGES } from '../../_guide/pages';

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const page = GUIDE_PAGES.find((p) => p.slug === slug);
  return { title: `${page?.title ?? 'Not found'} · VA Chat docs` };
}

export default async function GuideRoute({ params }: Props) {
  const { slug } = await params;
  // The index is /docs itself.
  const markdown = slug === 'index' ? null : loadGuidePage(slug);
  if (markdown === null) notFound();
  return <GuidePage slug={slug} markdown={markdown} />;
}
