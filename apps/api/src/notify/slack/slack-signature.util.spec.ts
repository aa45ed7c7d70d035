import { createHmac } from 'node:crypto';
import { checkSlackSignature, slackSignature } from './slack-signature.util';

// Slack's documented example (api.slack.com "Verifying requests from Slack").
const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TIMESTAMP = '1531420618';
const BODY = Buffer.from(
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
);

describe('Slack request signatures (v0)', () => {
  it("computes Slack's documented example", () => {
    expect(slackSignature(SECRET, TIMESTAMP, BODY)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('accepts the signature within five minutes of its timestamp', () => {
    const signature = slackSignature(SECRET, TIMESTAMP, BODY);
    const at = Number(TIMESTAMP);
    expect(checkSlackSignature(SECRET, TIMESTAMP, signature, BODY, at + 300)).toBe('ok');
    expect(checkSlackSignature(SECRET, TIMESTAMP, signature, BODY, at - 300)).toBe('ok');
    expect(checkSlackSignature(SECRET, TIMESTAMP, signature, BODY, at + 301)).toBe('stale');
  });

  it('refuses another body, another secret, a missing header or a malformed timestamp', () => {
    const signature = slackSignature(SECRET, TIMESTAMP, BODY);
    const at = Number(TIMESTAMP);
    const other = Buffer.concat([BODY, Buffer.from('&x=1')]);
    expect(checkSlackSignature(SECRET, TIMESTAMP, signature, other, at)).toBe('mismatch');
    expect(checkSlackSignature(`${SECRET}0`, TIMESTAMP, signature, BODY, at)).toBe('mismatch');
    expect(checkSlackSignature(SECRET, TIMESTAMP, signature.slice(0, -1), BODY, at)).toBe(
      'mismatch',
    );
    expect(checkSlackSignature(SECRET, undefined, signature, BODY, at)).toBe('missing');
    expect(checkSlackSignature(SECRET, TIMESTAMP, undefined, BODY, at)).toBe('missing');
    expect(checkSlackSignature(SECRET, '1531420618.5', signature, BODY, at)).toBe('stale');
    // A signature made with the timestamp moved is not this one.
    const moved = `v0=${createHmac('sha256', SECRET)
      .update(`v0:${at + 1}:${BODY.toString()}`)
      .digest('hex')}`;
    expect(checkSlackSignature(SECRET, TIMESTAMP, moved, BODY, at)).toBe('mismatch');
  });
});
