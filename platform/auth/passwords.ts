import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { env } from '@/env';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
// scrypt with N=2^15, r=8, p=1 (32 MiB per hash): the OWASP-recommended floor for scrypt.
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
// Under the test runner (NODE_ENV=test) new hashes cost N=2^10: the same algorithm and format, checked
// by the same code (a hash carries its parameters), at a thirty-second of the work. The suites make
// hundreds of accounts; at the real cost their hashing was a large share of the run's CPU.
const TEST_PARAMS = { ...PARAMS, N: 1024 };

/** The scrypt parameters of new hashes. */
const hashParams = () => (env().NODE_ENV === 'test' ? TEST_PARAMS : PARAMS);
const KEY_LEN = 32;

/** `scrypt$N$r$p$salt$hash`, all parameters kept so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const params = hashParams();
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LEN, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(actual, expected);
}
