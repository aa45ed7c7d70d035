/**
 * The notification emails' templates (Handlebars). `{{value}}` escapes HTML in the `html`
 * templates; the triple-stash that would not is refused by the renderer's spec, so every value
 * an agent supplied (titles, descriptions, action names and arguments) is escaped by
 * construction. The `text` and `subject` templates are compiled without escaping: plain text
 * has nothing to escape, and the subject is a header nodemailer encodes.
 */

const LAYOUT_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{subject}}</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328">
<div style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;color:#57606a;font-size:13px">Interlock · {{organisationName}}</p>
{{> body}}
<hr style="border:none;border-top:1px solid #d0d7de;margin:24px 0 12px">
<p style="margin:0;color:#57606a;font-size:12px">{{footer}}{{#if settingsUrl}} <a href="{{settingsUrl}}" style="color:#57606a">Notification settings</a>{{/if}}</p>
</div>
</body>
</html>`;

const INTERRUPT_BLOCK_HTML = `<div style="margin:0 0 20px">
<h2 style="margin:0 0 4px;font-size:17px"><a href="{{url}}" style="color:#0969da;text-decoration:none">{{title}}</a></h2>
<p style="margin:0 0 8px;color:#57606a;font-size:13px">{{label}}{{#if assignee}} · assigned to {{assignee}}{{/if}}{{#if escalation}} · {{escalation}}{{/if}}</p>
{{#if risk}}<p style="margin:0 0 8px;font-size:13px"><strong>{{risk}}</strong></p>{{/if}}
{{#if description}}<p style="margin:0 0 8px;white-space:pre-wrap">{{description}}</p>{{/if}}
{{#each actions}}
<div style="margin:8px 0;padding:8px 12px;border-left:3px solid #d0d7de">
<p style="margin:0"><strong>{{name}}</strong>{{#if description}} — {{description}}{{/if}}</p>
<pre style="margin:4px 0;white-space:pre-wrap;word-break:break-all;font-size:12px;color:#57606a">{{args}}</pre>
{{#if decided}}<p style="margin:4px 0;font-size:13px">{{decided}}</p>{{/if}}
{{#each links}}<a href="{{url}}" style="display:inline-block;margin:4px 8px 0 0;padding:6px 12px;border-radius:6px;background:{{#if primary}}#1f883d{{else}}#eaeef2{{/if}};color:{{#if primary}}#ffffff{{else}}#1f2328{{/if}};text-decoration:none;font-size:13px">{{label}}</a>{{/each}}
</div>
{{/each}}
<p style="margin:8px 0 0"><a href="{{url}}" style="color:#0969da">Open in Interlock</a></p>
</div>`;

const INTERRUPT_BLOCK_TEXT = `{{title}}
{{label}}{{#if assignee}} · assigned to {{assignee}}{{/if}}{{#if escalation}} · {{escalation}}{{/if}}
{{#if risk}}
{{risk}}
{{/if}}
{{#if description}}
{{description}}
{{/if}}
{{#each actions}}
- {{name}}{{#if description}} — {{description}}{{/if}}
  {{args}}
{{#if decided}}
  {{decided}}
{{/if}}
{{#each links}}
  {{label}}: {{url}}
{{/each}}
{{/each}}
Open in Interlock: {{url}}
`;

export const MAIL_TEMPLATES = {
  interrupt: {
    subject: `[{{organisationName}}] {{heading}}: {{item.title}}`,
    html: LAYOUT_HTML,
    body: `<h1 style="margin:0 0 16px;font-size:20px">{{heading}}</h1>
{{#with item}}${INTERRUPT_BLOCK_HTML}{{/with}}`,
    text: `{{heading}} ({{organisationName}})

{{#with item}}${INTERRUPT_BLOCK_TEXT}{{/with}}
--
{{footer}}
{{#if settingsUrl}}Notification settings: {{settingsUrl}}{{/if}}
`,
  },
  digest: {
    subject: `[{{organisationName}}] {{heading}}`,
    html: LAYOUT_HTML,
    body: `<h1 style="margin:0 0 16px;font-size:20px">{{heading}}</h1>
{{#each items}}${INTERRUPT_BLOCK_HTML}{{/each}}
<p style="margin:16px 0 0"><a href="{{inboxUrl}}" style="color:#0969da">Open the inbox</a></p>`,
    text: `{{heading}} ({{organisationName}})

{{#each items}}${INTERRUPT_BLOCK_TEXT}
{{/each}}
Open the inbox: {{inboxUrl}}
--
{{footer}}
{{#if settingsUrl}}Notification settings: {{settingsUrl}}{{/if}}
`,
  },
  invitation: {
    subject: `{{inviterName}} invited you to {{organisationName}} on Interlock`,
    html: LAYOUT_HTML,
    body: `<h1 style="margin:0 0 16px;font-size:20px">Join {{organisationName}} on Interlock</h1>
<p>{{inviterName}} invited you to review what {{organisationName}}'s agents ask, as {{roleName}}.</p>
<p><a href="{{acceptUrl}}" style="display:inline-block;padding:8px 16px;border-radius:6px;background:#1f883d;color:#ffffff;text-decoration:none">Accept the invitation</a></p>
<p style="color:#57606a;font-size:13px">The link works once and until {{expiresAt}}. If you did not expect it, ignore this email.</p>`,
    text: `{{inviterName}} invited you to review what {{organisationName}}'s agents ask, as {{roleName}}.

Accept the invitation: {{acceptUrl}}

The link works once and until {{expiresAt}}. If you did not expect it, ignore this email.
`,
  },
} as const;

export type MailTemplateName = keyof typeof MAIL_TEMPLATES;
