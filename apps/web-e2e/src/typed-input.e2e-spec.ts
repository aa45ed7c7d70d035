// Typed input (SPEC §5): an action with a responseSchema is answered in a form drawn from it; the
// dashboard refuses what the schema does not allow before sending, and the agent reads the answer.
import { expect, expectAccessible, screenshot, test } from './support/fixtures';
import { api, baseURL } from './support/service';

test('a member answers a typed question in the form its responseSchema describes', async ({
  page,
  owner,
}) => {
  const { body: key } = await api<{ key: string }>('POST', '/api/api-keys', {
    cookie: owner.cookie,
    body: { name: 'typed-agent', expiry: 'never' },
  });
  const created = await fetch(`${baseURL}/api/interrupts`, {
    method: 'POST',
    headers: { 'x-api-key': key.key, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Plan the rollout of api 1.4.2',
      actionRequests: [
        {
          name: 'answer',
          args: { service: 'api' },
          allowedDecisions: ['respond', 'reject'],
          responseSchema: {
            type: 'object',
            properties: {
              region: {
                type: 'string',
                title: 'Region',
                description: 'Where to deploy first',
                enum: ['eu-west-1', 'us-east-1'],
              },
              replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 20 },
              canary: { type: 'boolean', title: 'Canary first' },
              teams: {
                type: 'array',
                title: 'Teams to tell',
                items: { type: 'string', enum: ['ops', 'payments'] },
              },
            },
            required: ['region', 'replicas'],
          },
        },
      ],
    }),
  });
  expect(created.status).toBe(201);
  const interrupt = (await created.json()) as { id: string };

  await page.goto(`/interrupts/${interrupt.id}`);
  await expect(page.getByRole('heading', { name: 'Plan the rollout of api 1.4.2' })).toBeVisible();
  await page.getByRole('button', { name: 'Respond to answer' }).click();
  const form = page.getByRole('form', { name: 'Response to answer' });
  // The fields in the schema's order, each labelled by its title.
  await expect(form.locator('label')).toContainText([
    'Region',
    'Replicas',
    'Canary first',
    'Teams to tell',
    'Note for the agent',
  ]);
  // A required field left empty: refused in the page, in the service's own words, nothing sent.
  await form.getByRole('textbox', { name: 'Replicas' }).fill('4');
  await form.getByRole('button', { name: 'Send response' }).click();
  await expect(form.getByRole('alert')).toHaveText('response.region is required');
  const unsent = await fetch(`${baseURL}/api/interrupts/${interrupt.id}`, {
    headers: { 'x-api-key': key.key },
  });
  expect(((await unsent.json()) as { status: string }).status).toBe('open');
  await form.getByRole('combobox', { name: 'Region' }).click();
  await page.getByRole('option', { name: 'us-east-1' }).click();
  await form.getByRole('checkbox', { name: 'Canary first' }).check();
  await expectAccessible(page, 'the typed response form');
  await screenshot(page, 'typed-input');
  await form.getByRole('button', { name: 'Send response' }).click();
  await expect(page.getByText(/Responded by/)).toBeVisible();
  await expect(page.getByLabel('Response', { exact: true })).toContainText('us-east-1');

  const read = await fetch(`${baseURL}/api/interrupts/${interrupt.id}`, {
    headers: { 'x-api-key': key.key },
  });
  const answered = (await read.json()) as {
    status: string;
    decisions: { decision: string; response: unknown }[];
  };
  expect(answered.status).toBe('answered');
  expect(answered.decisions.map((d) => [d.decision, d.response])).toEqual([
    ['respond', { region: 'us-east-1', replicas: 4, canary: true }],
  ]);
});
