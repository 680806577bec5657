/**
 * Secrets, home-directory paths and e-mail addresses to seed into generated logs, each with the
 * text that must not survive redaction.
 */
import type { RedactKind } from '../../src/core/redact';

export interface SeededSecret {
  kind: RedactKind;
  /** The text put into the log. */
  text: string;
  /** What must not be found anywhere in a redacted log. */
  leak: string;
}

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAq7BFUpkGp3+LQmlQ\nYx8Qj2ZQpNq+Wm0Vk3vTzq9pKEY\n-----END RSA PRIVATE KEY-----';

export const SEEDED_SECRETS: readonly SeededSecret[] = [
  { kind: 'openai-key', text: 'OPENAI_API_KEY=sk-proj-Zq8mWv2LxP0aR7cT4nB9yK3e', leak: 'Zq8mWv2LxP0aR7cT4nB9yK3e' },
  { kind: 'anthropic-key', text: 'key sk-ant-api03-Hf7Tq2Wm9Lx4Nc8Vb1Rz6Ky0', leak: 'Hf7Tq2Wm9Lx4Nc8Vb1Rz6Ky0' },
  { kind: 'github-token', text: 'token ghp_Qw3Er5Ty7Ui9Op1As2Df4Gh6Jk8Lz0Xc9Vb', leak: 'Qw3Er5Ty7Ui9Op1As2Df4Gh6Jk8Lz0Xc9Vb' },
  { kind: 'github-token', text: 'github_pat_11AB2CD3EF_4gh5ij6kl7mn8op9qr0st1uv2wx3yz', leak: '4gh5ij6kl7mn8op9qr0st1uv2wx3yz' },
  { kind: 'aws-access-key', text: 'aws_access_key_id = AKIAZ7Q3W9E5R1T6Y2U8', leak: 'AKIAZ7Q3W9E5R1T6Y2U8' },
  { kind: 'slack-token', text: 'SLACK=xoxb-2048-Kp9Lm3Nq7Rs1Tv5', leak: 'Kp9Lm3Nq7Rs1Tv5' },
  { kind: 'google-api-key', text: 'maps key AIzaSyB7x9Q2w4E6r8T0y1U3i5O7p9A2s4D6f8G', leak: 'SyB7x9Q2w4E6r8T0y1U3i5O7p9A2s4D6f8G' },
  {
    kind: 'jwt',
    text: 'cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJxN3Z4a2oifQ.Wn4Xq8Lm2Pz6Rt0Vy3Bc7',
    leak: 'Wn4Xq8Lm2Pz6Rt0Vy3Bc7',
  },
  { kind: 'bearer-token', text: 'Authorization: Bearer qv7Jm2Kx9Lp4Wz', leak: 'qv7Jm2Kx9Lp4Wz' },
  { kind: 'private-key', text: PEM, leak: 'MIIEowIBAAKCAQEAq7BFUpkGp3' },
  { kind: 'home-path', text: 'opened /home/alicezq7/project/src/main.ts', leak: 'alicezq7' },
  { kind: 'home-path', text: 'cd /Users/bobxw3/Code', leak: 'bobxw3' },
  { kind: 'home-path', text: 'C:\\Users\\carolkv5\\app\\index.js', leak: 'carolkv5' },
  { kind: 'email', text: 'mail daveyj4@example.org now', leak: 'daveyj4@example.org' },
];
