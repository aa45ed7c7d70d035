import type Handlebars from 'handlebars';
import type { OutgoingMail } from '../mail/mailer';
import { onFirstUse } from '../loading/on-first-use.util';

/**
 * The account emails' templates (Handlebars, SPEC §8f): a person's own account, so no
 * organisation. `{{value}}` escapes HTML in the `html` part; the `text` and `subject` parts are
 * compiled without escaping (plain text, and a header nodemailer encodes).
 */
const LAYOUT = (body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{subject}}</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328">
<div style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;color:#57606a;font-size:13px">Interlock · your account</p>
${body}
</div>
</body>
</html>`;

const BUTTON = `display:inline-block;padding:8px 16px;border-radius:6px;background:#1f883d;color:#ffffff;text-decoration:none`;

const TEMPLATES = {
  passwordReset: {
    subject: 'Reset your Interlock password',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Reset your password</h1>
<p>Hello {{name}}, someone (we hope you) asked to reset the password of the Interlock account {{email}}.</p>
<p><a href="{{url}}" style="${BUTTON}">Choose a new password</a></p>
<p style="color:#57606a;font-size:13px">The link works once, for 30 minutes. Choosing a new password signs you out everywhere. If you did not ask, ignore this email: your password stays as it is.</p>`),
    text: `Hello {{name}}, someone (we hope you) asked to reset the password of the Interlock account {{email}}.

Choose a new password: {{url}}

The link works once, for 30 minutes. Choosing a new password signs you out everywhere. If you did not ask, ignore this email: your password stays as it is.
`,
  },
  emailVerification: {
    subject: 'Verify your email address for Interlock',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Verify your email address</h1>
<p>Hello {{name}}, please confirm that {{email}} is your address for Interlock.</p>
<p><a href="{{url}}" style="${BUTTON}">Verify {{email}}</a></p>
<p style="color:#57606a;font-size:13px">The link works once, for 24 hours. A verified address lets you accept invitations to other organisations and receive notifications. If you did not sign up for Interlock, someone typed your address: ignore this email, or take the account over with a password reset.</p>`),
    text: `Hello {{name}}, please confirm that {{email}} is your address for Interlock.

Verify it: {{url}}

The link works once, for 24 hours. A verified address lets you accept invitations to other organisations and receive notifications. If you did not sign up for Interlock, someone typed your address: ignore this email, or take the account over with a password reset.
`,
  },
  signUpLink: {
    subject: 'Finish signing up for Interlock',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Finish signing up</h1>
<p>Hello {{name}}, someone (we hope you) signed up for Interlock with {{email}}, to create the organisation {{organisationName}}.</p>
<p><a href="{{url}}" style="${BUTTON}">Create my account</a></p>
<p style="color:#57606a;font-size:13px">The link works for 24 hours and verifies {{email}} as your address. If you did not sign up, ignore this email: no account is made.</p>`),
    text: `Hello {{name}}, someone (we hope you) signed up for Interlock with {{email}}, to create the organisation {{organisationName}}.

Create my account: {{url}}

The link works for 24 hours and verifies {{email}} as your address. If you did not sign up, ignore this email: no account is made.
`,
  },
  signUpAddressTaken: {
    subject: 'You already have an Interlock account',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">You already have an account</h1>
<p>Hello {{name}}, someone (perhaps you) tried to sign up for Interlock with {{email}}, which already has an account. No new account was made, and nothing about yours changed.</p>
<p><a href="{{signInUrl}}" style="${BUTTON}">Sign in</a></p>
<p style="color:#57606a;font-size:13px">Forgot your password? Choose a new one at <a href="{{resetUrl}}" style="color:#0969da">{{resetUrl}}</a>: the link goes only to this mailbox. If you never made an account, someone else did with your address: that reset makes the account yours. If it was not you, ignore this email.</p>`),
    text: `Hello {{name}}, someone (perhaps you) tried to sign up for Interlock with {{email}}, which already has an account. No new account was made, and nothing about yours changed.

Sign in: {{signInUrl}}

Forgot your password? Choose a new one at {{resetUrl}} — the link goes only to this mailbox. If you never made an account, someone else did with your address: that reset makes the account yours. If it was not you, ignore this email.
`,
  },
  passwordChanged: {
    subject: 'Your Interlock password was changed',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Your password was changed</h1>
<p>Hello {{name}}, the password of the Interlock account {{email}} was {{how}} at {{at}} (UTC){{#if address}} from {{address}}{{/if}}. {{ended}}</p>
<p style="color:#57606a;font-size:13px">If this was not you, reset your password now: <a href="{{resetUrl}}" style="color:#0969da">{{resetUrl}}</a>, and tell your organisation's owner.</p>`),
    text: `Hello {{name}}, the password of the Interlock account {{email}} was {{how}} at {{at}} (UTC){{#if address}} from {{address}}{{/if}}. {{ended}}

If this was not you, reset your password now: {{resetUrl}} — and tell your organisation's owner.
`,
  },
  emailChangeLink: {
    subject: 'Confirm your new email address for Interlock',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Confirm your new email address</h1>
<p>Hello {{name}}, the Interlock account {{oldEmail}} asked to use {{email}} as its address from now on.</p>
<p><a href="{{url}}" style="${BUTTON}">Use {{email}}</a></p>
<p style="color:#57606a;font-size:13px">The link works once, for 24 hours; until it is opened the account keeps {{oldEmail}}. If you did not ask for this, ignore this email: nothing changes.</p>`),
    text: `Hello {{name}}, the Interlock account {{oldEmail}} asked to use {{email}} as its address from now on.

Use {{email}}: {{url}}

The link works once, for 24 hours; until it is opened the account keeps {{oldEmail}}. If you did not ask for this, ignore this email: nothing changes.
`,
  },
  emailChangeAddressTaken: {
    subject: 'Someone tried to move an Interlock account to your address',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Your address already has an account</h1>
<p>The Interlock account {{oldEmail}} asked to use {{email}} as its address, but {{email}} already has an Interlock account of its own. Nothing changed, on either account.</p>
<p style="color:#57606a;font-size:13px">An address belongs to one account. To use {{email}} for the other account, first change or delete the account that has it. If you did not ask for this, ignore this email.</p>`),
    text: `The Interlock account {{oldEmail}} asked to use {{email}} as its address, but {{email}} already has an Interlock account of its own. Nothing changed, on either account.

An address belongs to one account. To use {{email}} for the other account, first change or delete the account that has it. If you did not ask for this, ignore this email.
`,
  },
  emailChanged: {
    subject: 'Your Interlock email address was changed',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Your email address was changed</h1>
<p>Hello {{name}}, the address of your Interlock account was changed from {{email}} to {{newEmail}} at {{at}} (UTC){{#if address}} from {{address}}{{/if}}. Emails about the account now go to {{newEmail}}.</p>
<p style="color:#57606a;font-size:13px">If this was not you, undo it: the link gives the account this address back, lets you choose a new password and signs everyone out. It works once, for 7 days.</p>
<p><a href="{{url}}" style="${BUTTON}">This wasn't me: undo the change</a></p>`),
    text: `Hello {{name}}, the address of your Interlock account was changed from {{email}} to {{newEmail}} at {{at}} (UTC){{#if address}} from {{address}}{{/if}}. Emails about the account now go to {{newEmail}}.

If this was not you, undo it: the link gives the account this address back, lets you choose a new password and signs everyone out. It works once, for 7 days.

This wasn't me: {{url}}
`,
  },
  signInBackstopSpent: {
    subject: 'Sign-ins to your Interlock account are refused from new addresses for now',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Someone may be trying to sign in as you</h1>
<p>Hello {{name}}, at {{at}} (UTC) a sign-in to your Interlock account {{email}}{{#if address}} from {{address}}{{/if}} was refused: {{failures}} sign-ins failed (a wrong password, or a wrong two-factor code) within {{window}} from addresses where you have not signed in lately. Nobody got in through them.</p>
<p>Until about {{until}} (UTC), sign-ins from such new addresses are refused, even with the right password. Where you signed in with your password or with single sign-on lately, you still sign in as usual.</p>
<p>If a sign-in of yours is refused, wait until then, or choose a new password: where you use the reset link, you sign in at once, and whoever is guessing has to start again. If two-factor sign-in is on for your account, a wrong code means whoever tried may know your password: choose a new password now.</p>
<p><a href="{{resetUrl}}" style="${BUTTON}">Choose a new password</a></p>
<p style="color:#57606a;font-size:13px">Two-factor sign-in (Settings → Security) keeps a guessed password from being enough. This email is sent at most once every {{window}}.</p>`),
    text: `Hello {{name}}, at {{at}} (UTC) a sign-in to your Interlock account {{email}}{{#if address}} from {{address}}{{/if}} was refused: {{failures}} sign-ins failed (a wrong password, or a wrong two-factor code) within {{window}} from addresses where you have not signed in lately. Nobody got in through them.

Until about {{until}} (UTC), sign-ins from such new addresses are refused, even with the right password. Where you signed in with your password or with single sign-on lately, you still sign in as usual.

If a sign-in of yours is refused, wait until then, or choose a new password: where you use the reset link, you sign in at once, and whoever is guessing has to start again. If two-factor sign-in is on for your account, a wrong code means whoever tried may know your password: choose a new password now.

Choose a new password: {{resetUrl}}

Two-factor sign-in (Settings → Security) keeps a guessed password from being enough. This email is sent at most once every {{window}}.
`,
  },
  ssoLinked: {
    subject: 'Your Interlock account now signs in with {{organisationName}}’s single sign-on',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">Single sign-on linked to your account</h1>
<p>Hello {{name}}, at {{at}} (UTC){{#if address}} from {{address}}{{/if}} your Interlock account {{email}} was linked to the single sign-on of {{organisationName}} ({{issuer}}), after a sign-in with your password in the same browser. From now on that identity provider signs you in to {{organisationName}}.</p>
<p style="color:#57606a;font-size:13px">If this was not you, choose a new password now: <a href="{{resetUrl}}" style="color:#0969da">{{resetUrl}}</a> (it signs you out everywhere), and tell {{organisationName}}’s owner.</p>`),
    text: `Hello {{name}}, at {{at}} (UTC){{#if address}} from {{address}}{{/if}} your Interlock account {{email}} was linked to the single sign-on of {{organisationName}} ({{issuer}}), after a sign-in with your password in the same browser. From now on that identity provider signs you in to {{organisationName}}.

If this was not you, choose a new password now: {{resetUrl}} (it signs you out everywhere), and tell {{organisationName}}’s owner.
`,
  },
  ssoDomainRecordMissing: {
    subject:
      'The DNS record proving {{domain}} for {{organisationName}}’s single sign-on is missing',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">{{domain}}: verification record missing</h1>
<p>Hello {{name}}, at {{at}} (UTC) Interlock looked up the TXT record <code>{{recordName}}</code> and did not find <code>{{recordValue}}</code>. It proves that {{organisationName}} controls {{domain}}, whose addresses its single sign-on signs in.</p>
<p>Nothing has changed yet. If the record is still missing at the next {{checksLeft}} look-up(s) (one every {{every}}), {{domain}} stops being verified: nobody there signs in with single sign-on until it is verified again.</p>
<p><a href="{{settingsUrl}}" style="${BUTTON}">Open Organisation → Single sign-on</a></p>`),
    text: `Hello {{name}}, at {{at}} (UTC) Interlock looked up the TXT record {{recordName}} and did not find {{recordValue}}. It proves that {{organisationName}} controls {{domain}}, whose addresses its single sign-on signs in.

Nothing has changed yet. If the record is still missing at the next {{checksLeft}} look-up(s) (one every {{every}}), {{domain}} stops being verified: nobody there signs in with single sign-on until it is verified again.

Organisation → Single sign-on: {{settingsUrl}}
`,
  },
  ssoDomainUnverified: {
    subject: '{{domain}} is no longer verified for {{organisationName}}’s single sign-on',
    html: LAYOUT(`<h1 style="margin:0 0 16px;font-size:20px">{{domain}} is no longer verified</h1>
<p>Hello {{name}}, the TXT record <code>{{recordName}}</code> holding <code>{{recordValue}}</code> was not found at {{failedChecks}} look-ups in a row, the last at {{at}} (UTC). {{domain}} is therefore no longer verified for {{organisationName}}’s single sign-on: nobody at {{domain}} signs in with it until it is verified again.</p>
<p>Publish the record again, then choose Verify in Organisation → Single sign-on: the accounts it had linked then sign in with it again. Owners still sign in with their password meanwhile.</p>
<p><a href="{{settingsUrl}}" style="${BUTTON}">Open Organisation → Single sign-on</a></p>`),
    text: `Hello {{name}}, the TXT record {{recordName}} holding {{recordValue}} was not found at {{failedChecks}} look-ups in a row, the last at {{at}} (UTC). {{domain}} is therefore no longer verified for {{organisationName}}’s single sign-on: nobody at {{domain}} signs in with it until it is verified again.

Publish the record again, then choose Verify in Organisation → Single sign-on: the accounts it had linked then sign in with it again. Owners still sign in with their password meanwhile.

Organisation → Single sign-on: {{settingsUrl}}
`,
  },
} as const;

export type AccountMailName = keyof typeof TEMPLATES;

interface Compiled {
  subject: Handlebars.TemplateDelegate;
  text: Handlebars.TemplateDelegate;
  html: Handlebars.TemplateDelegate;
}

const compiled = new Map<AccountMailName, Compiled>();

/** Handlebars, loaded by the first account email (issue 28: a process that sends none never holds it). */
const handlebars = onFirstUse<typeof Handlebars>('handlebars');

function templates(name: AccountMailName): Compiled {
  let found = compiled.get(name);
  if (found === undefined) {
    const source = TEMPLATES[name];
    const engine = handlebars();
    found = {
      subject: engine.compile(source.subject, { noEscape: true, strict: true }),
      text: engine.compile(source.text, { noEscape: true }),
      html: engine.create().compile(source.html),
    };
    compiled.set(name, found);
  }
  return found;
}

/** One account email, rendered: both parts from the same values. */
export function renderAccountMail(
  name: AccountMailName,
  to: string,
  values: Record<string, string | null>,
): OutgoingMail {
  const t = templates(name);
  const subject = t.subject(values);
  return { to, subject, text: t.text(values), html: t.html({ ...values, subject }) };
}

/** A duration as an email says it: `86400000` → `1 day`, `21600000` → `6 hours`, `90000` → `1.5 minutes`. */
export function describeInterval(ms: number): string {
  const [amount, unit] =
    ms % 86_400_000 === 0
      ? [ms / 86_400_000, 'day']
      : ms % 3_600_000 === 0
        ? [ms / 3_600_000, 'hour']
        : [Math.round(ms / 6_000) / 10, 'minute'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}
