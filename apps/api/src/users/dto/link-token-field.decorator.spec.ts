import 'reflect-metadata';
import { documentedProperty, validationAnswer } from '../../http/validation-answer.spec-support';
import { LinkTokenField } from './link-token-field.decorator';

class FromTheLink {
  @LinkTokenField('the probe link')
  token!: string;
}

const answer = (value: Record<string, unknown>) => validationAnswer(FromTheLink, value);

describe("LinkTokenField: an emailed account link's token, from the link's fragment", () => {
  it('accepts up to 200 characters', async () => {
    expect(await answer({ token: 't'.repeat(43) })).toBe('accepted');
    expect(await answer({ token: 't'.repeat(200) })).toBe('accepted');
  });

  it('refuses a longer one, a missing one and one that is not a string: 400 VALIDATION_FAILED', async () => {
    expect(await answer({ token: 't'.repeat(201) })).toBe(
      'VALIDATION_FAILED: token must be shorter than or equal to 200 characters',
    );
    expect(await answer({})).toMatch(/^VALIDATION_FAILED: token must be a string/);
    expect(await answer({ token: 42 })).toMatch(/^VALIDATION_FAILED: token must be a string/);
  });

  it('documents its bound, and the link it comes from in the sentence every such token has', () => {
    expect(documentedProperty(FromTheLink, 'token')).toMatchObject({
      maxLength: 200,
      description: "The token from the probe link (the part after the link's #).",
    });
  });
});
