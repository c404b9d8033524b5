/** The built pages' screens, by path; a page without one shows where the API does its work. */
import type { FunctionComponent } from 'preact';
import type { Me } from '../api/client.js';
import { ApiKeys } from './ApiKeys.js';
import { Jobs } from './Jobs.js';
import { Links } from './Links.js';

export const SCREENS: Readonly<Record<string, FunctionComponent<{ me: Me }>>> = {
  '/jobs': Jobs,
  '/links': Links,
  '/keys': ApiKeys,
};
