import { desc, eq } from 'drizzle-orm';
import type { Database, Executor } from '../database.js';
import { accounts, type Plan } from '../schema.js';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
}

export async function createAccount(db: Executor, input: { name: string; plan: Plan }): Promise<Account> {
  const [row] = await db
    .insert(accounts)
    .values({ name: input.name, plan: input.plan })
    .returning({ id: accounts.id, name: accounts.name, plan: accounts.plan });
  return row!;
}

export async function listAccounts(db: Database): Promise<Account[]> {
  return db.select({ id: accounts.id, name: accounts.name, plan: accounts.plan }).from(accounts).orderBy(desc(accounts.createdAt));
}

export async function findAccount(db: Database, id: string): Promise<Account | null> {
  const [row] = await db.select({ id: accounts.id, name: accounts.name, plan: accounts.plan }).from(accounts).where(eq(accounts.id, id));
  return row ?? null;
}
