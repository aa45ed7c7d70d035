import 'reflect-metadata';
import { IsString, MaxLength } from 'class-validator';
import { documentedProperty, validationAnswer } from '../../http/validation-answer.spec-support';
import { LinkTokenField } from './link-token-field.decorator';

class FromTheLink {
  @LinkTokenField('the probe link')
  token!: string;
}

/** The stacked declaration the four DTOs had before the composed one: its 400s are the contract's. */
class StackedAsBefore {
  @IsString()
  @MaxLength(200)
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
    // Whole texts, messages in the stacked declaration's order (applyDecorators runs first to last).
    expect(await answer({})).toBe(
      'VALIDATION_FAILED: token must be shorter than or equal to 200 characters; token must be a string',
    );
    expect(await answer({ token: 42 })).toBe(
      'VALIDATION_FAILED: token must be shorter than or equal to 200 characters; token must be a string',
    );
  });

  it.each([
    [{}],
    [{ token: 42 }],
    [{ token: null }],
    [{ token: 't'.repeat(201) }],
    [{ token: 'ok' }],
  ])('answers %j exactly as the stacked @IsString() @MaxLength(200) it replaced', async (value) => {
    expect(await answer(value)).toBe(await validationAnswer(StackedAsBefore, value));
  });

  it('documents its bound, and the link it comes from in the sentence every such token has', () => {
    expect(documentedProperty(FromTheLink, 'token')).toMatchObject({
      maxLength: 200,
      description: "The token from the probe link (the part after the link's #).",
    });
  });
});
