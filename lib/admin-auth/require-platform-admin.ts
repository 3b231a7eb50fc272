import { ApiError } from '@/platform/errors';
import type { AdminAuth } from './types';

export function requirePlatformAdmin(admin: AdminAuth): void {
  if (!admin.isPlatformAdmin) throw new ApiError(3003, { detail: 'only a platform administrator may do this' });
}
