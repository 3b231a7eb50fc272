/** Who an agent workspace call acts as, established from its session cookie. */
export type AgentAuth = {
  userId: number;
  accountId: number;
  loginId: string;
  email: string;
  kind: 'agent' | 'manager';
  /** The teams the person belongs to, read with the session: what they may see and work. */
  teamIds: number[];
};
