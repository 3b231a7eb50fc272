export * from '@/contracts/codes';
export * from './api-error';
