// The first process of the Mastra durable path (mastra.e2e-spec.ts runs it with jiti, then it
// exits): the agent, on Mastra's Postgres storage (@mastra/pg) in schema argv[2], runs until its
// tool call needs approval; the bridge opens the interrupt; the chunk and the interrupt's id are
// written to stdout as JSON — what an application keeps with its run.
import { PostgresStore } from '@mastra/pg';
import { Interlock, openMastraReview } from '../../src';
import { mailAgent, suspended } from './mastra-agent';

async function main(): Promise<void> {
  const [schemaName, externalId] = process.argv.slice(2);
  const storage = new PostgresStore({
    connectionString: process.env['INTERLOCK_TEST_DATABASE_URL'] ?? '',
    schemaName,
  });
  const { agent } = mailAgent(storage);
  const approval = await suspended(agent);
  const client = new Interlock({
    apiKey: process.env['INTERLOCK_API_KEY'],
    baseURL: process.env['INTERLOCK_BASE_URL'],
  });
  const opened = await openMastraReview(client, approval, { externalId });
  await storage.close();
  process.stdout.write(JSON.stringify({ approval, interruptId: opened.id }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
