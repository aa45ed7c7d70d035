/**
 * Ask the saved classifier about a sample action (SPEC §8d): the input of
 * `ClassificationClassifierService.test`; every field of the sample has a default (the validated
 * `TestClassifierDto` is such a `sample`).
 */
export interface TestClassifierCommand {
  organisationId: string;
  sample: { actionName?: string; args?: Record<string, unknown>; title?: string };
}
