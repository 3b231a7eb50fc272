import type { ReactNode } from 'react';
import { DocsNav } from './_guide/docs-nav';
import styles from './docs.module.css';

/** /docs: the guide (Markdown in docs/guide) and the two API references (Scalar), under one top bar. */
export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <div className={styles.docs}>
      <DocsNav />
      {children}
    </div>
  );
}
