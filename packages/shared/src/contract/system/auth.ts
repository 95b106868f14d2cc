import { z } from 'zod';
import { operation, peopleOnly } from '../operation.ts';

/** A permitted resource as the menu and the permission checks of the web read it. */
export const permittedResource = z.object({
  Id: z.number(),
  Code: z.string(),
  Name: z.string(),
  ParentId: z.number().nullable(),
  Type: z.enum(['menu', 'permission']),
  Sort: z.number(),
});
export type PermittedResource = z.output<typeof permittedResource>;

export const loginBody = z.strictObject({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
});
export type LoginInput = z.output<typeof loginBody>;

const TAG = 'Auth';

const authOperations = {
  login: operation({
    method: 'POST',
    path: '/api/Auth/login',
    summary: 'Log in with username and password; returns a bearer token',
    tag: TAG,
    access: 'public',
    // A user name and a password: a few hundred bytes; anything near this limit is not a login.
    bodyLimit: 4 * 1024,
    body: loginBody,
    reply: z.object({ token: z.string() }),
  }),
  logout: operation({
    method: 'POST',
    path: '/api/Auth/logout',
    summary: 'Revoke the calling session',
    tag: TAG,
    access: 'authenticated',
  }),
  resources: operation({
    method: 'GET',
    path: '/api/Auth/Resource',
    summary: "The caller's permitted resources (permission codes and menus)",
    tag: TAG,
    access: 'authenticated',
    reply: z.array(permittedResource),
  }),
};

// Signing in is public; the resources a caller may see follow its codes, a key's too. A key has no session
// to end.
export const AuthApi = peopleOnly(authOperations, ['login', 'resources']);
