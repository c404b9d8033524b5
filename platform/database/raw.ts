/**
 * The Postgres pool as the few modules that run SQL of their own on it see it (the scan path's
 * statements, the ingester's COPY, the export's cursor): the domain otherwise queries through
 * Drizzle. Importing this module from domain/ is allowed only to the files listed in
 * .dependency-cruiser.cjs (docs/decisions/0421), so the list can only shrink.
 */
import type pg from 'pg';

export type Pool = pg.Pool;
export type QueryConfig = pg.QueryConfig;

/** `COPY … TO STDOUT` as a stream of the rows' bytes (pg-copy-streams), for a query run on a pool's client. */
export { to as copyTo } from 'pg-copy-streams';
