import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { installEarlyReads } from '@/shared/utils/early-reads';
import { prefetchInbox } from '@/features/interrupts/api/interrupts.queries';
import { InboxRoute } from '@/features/interrupts/routes/inbox.route';
import { meQuery } from '@/shared/sign-in/me.queries';
import { signInSessionQuery } from '@/shared/sign-in/sign-in-session.queries';
import { AppLayout } from './layout/app-layout';
import { PublicLayout } from './layout/public-layout';
import { HomeRedirect } from './layout/home-redirect';
import { NotFoundRoute } from './layout/not-found.route';
import { RouteError } from './layout/route-error';
import { queryClient } from './query-client';

/**
 * Every page is its own chunk (loaded on navigation), so the first load carries only the shell.
 * Pages come from the features; the app only places them (imports run shared → features → app).
 * Loaders start the reads a page needs as navigation starts, beside loading its code, and
 * return at once: the pages read the same cache.
 */
const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    errorElement: <RouteError />,
    children: [
      {
        path: 'sign-in',
        lazy: () =>
          import('@/features/auth/routes/sign-in.route').then((m) => ({
            Component: m.SignInRoute,
          })),
      },
      {
        path: 'sign-in/sso',
        lazy: () =>
          import('@/features/auth/routes/sso-sign-in.route').then((m) => ({
            Component: m.SsoSignInRoute,
          })),
      },
      {
        path: 'sso/callback',
        lazy: () =>
          import('@/features/auth/routes/sso-callback.route').then((m) => ({
            Component: m.SsoCallbackRoute,
          })),
      },
      {
        path: 'sign-up',
        lazy: () =>
          import('@/features/auth/routes/sign-up.route').then((m) => ({
            Component: m.SignUpRoute,
          })),
      },
      {
        path: 'complete-sign-up',
        lazy: () =>
          import('@/features/auth/routes/complete-sign-up.route').then((m) => ({
            Component: m.CompleteSignUpRoute,
          })),
      },
      {
        path: 'reset-password',
        lazy: () =>
          import('@/features/auth/routes/reset-password.route').then((m) => ({
            Component: m.ResetPasswordRoute,
          })),
      },
      {
        path: 'verify-email',
        lazy: () =>
          import('@/features/auth/routes/verify-email.route').then((m) => ({
            Component: m.VerifyEmailRoute,
          })),
      },
      {
        path: 'confirm-email-change',
        lazy: () =>
          import('@/features/auth/routes/confirm-email-change.route').then((m) => ({
            Component: m.ConfirmEmailChangeRoute,
          })),
      },
      {
        path: 'undo-email-change',
        lazy: () =>
          import('@/features/auth/routes/undo-email-change.route').then((m) => ({
            Component: m.UndoEmailChangeRoute,
          })),
      },
      {
        path: 'invitations/:token',
        lazy: () =>
          import('@/features/auth/routes/accept-invitation.route').then((m) => ({
            Component: m.AcceptInvitationRoute,
          })),
      },
      {
        path: 'decide',
        lazy: () =>
          import('@/features/notifications/routes/decide-by-link.route').then((m) => ({
            Component: m.DecideByLinkRoute,
          })),
      },
    ],
  },
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    loader: () => {
      // Every signed-in page waits for both: ask for them at once, not the session after `me`.
      void queryClient.prefetchQuery(meQuery);
      void queryClient.prefetchQuery(signInSessionQuery);
      return null;
    },
    children: [
      { index: true, element: <HomeRedirect /> },
      {
        path: 'inbox',
        loader: ({ request }) => {
          prefetchInbox(queryClient, new URL(request.url).searchParams);
          return null;
        },
        // The inbox is where reviewers land: it ships with the shell (no second round trip).
        Component: InboxRoute,
      },
      {
        path: 'interrupts/:id',
        lazy: () =>
          import('@/features/interrupts/routes/interrupt.route').then((m) => ({
            Component: m.InterruptRoute,
          })),
      },
      {
        path: 'interrupts/:id/confirm',
        lazy: () =>
          import('@/features/interrupts/routes/confirm-decision.route').then((m) => ({
            Component: m.ConfirmDecisionRoute,
          })),
      },
      {
        path: 'sessions',
        lazy: () =>
          import('@/features/sessions/routes/sessions.route').then((m) => ({
            Component: m.SessionsRoute,
          })),
      },
      {
        path: 'sessions/:id',
        lazy: () =>
          import('@/features/sessions/routes/live-view.route').then((m) => ({
            Component: m.LiveViewRoute,
          })),
      },
      {
        path: 'audit-log',
        lazy: () =>
          import('@/features/audit-log/routes/audit-log.route').then((m) => ({
            Component: m.AuditLogRoute,
          })),
      },
      { path: 'integrations', element: <Navigate to="/integrations/api-keys" replace /> },
      {
        path: 'integrations/api-keys',
        lazy: () =>
          import('@/features/api-keys/routes/api-keys.route').then((m) => ({
            Component: m.ApiKeysRoute,
          })),
      },
      {
        path: 'integrations/webhooks',
        lazy: () =>
          import('@/features/webhooks/routes/webhooks.route').then((m) => ({
            Component: m.WebhooksRoute,
          })),
      },
      {
        path: 'integrations/webhooks/:id',
        lazy: () =>
          import('@/features/webhooks/routes/webhook.route').then((m) => ({
            Component: m.WebhookRoute,
          })),
      },
      {
        path: 'members',
        lazy: () =>
          import('@/features/members/routes/members.route').then((m) => ({
            Component: m.MembersRoute,
          })),
      },
      {
        path: 'invitations',
        lazy: () =>
          import('@/features/members/routes/invitations.route').then((m) => ({
            Component: m.InvitationsRoute,
          })),
      },
      {
        path: 'roles',
        lazy: () =>
          import('@/features/roles/routes/roles.route').then((m) => ({ Component: m.RolesRoute })),
      },
      {
        path: 'teams',
        lazy: () =>
          import('@/features/teams/routes/teams.route').then((m) => ({ Component: m.TeamsRoute })),
      },
      {
        path: 'organisation',
        lazy: () =>
          import('@/features/organisation/routes/organisation.route').then((m) => ({
            Component: m.OrganisationRoute,
          })),
      },
      {
        path: 'organisation/sso',
        lazy: () =>
          import('@/features/organisation/routes/sso-settings.route').then((m) => ({
            Component: m.SsoSettingsRoute,
          })),
      },
      {
        path: 'settings',
        lazy: () =>
          import('@/features/settings/routes/settings.route').then((m) => ({
            Component: m.SettingsRoute,
          })),
      },
      {
        path: 'settings/classification',
        lazy: () =>
          import('@/features/classification/routes/classification.route').then((m) => ({
            Component: m.ClassificationRoute,
          })),
      },
      {
        path: 'settings/classification/:ruleId',
        lazy: () =>
          import('@/features/classification/routes/rule-editor.route').then((m) => ({
            Component: m.RuleEditorRoute,
          })),
      },
      {
        path: 'settings/deadlines',
        lazy: () =>
          import('@/features/organisation/routes/deadline-settings.route').then((m) => ({
            Component: m.DeadlineSettingsRoute,
          })),
      },
      {
        path: 'settings/escalation',
        lazy: () =>
          import('@/features/organisation/routes/escalation-settings.route').then((m) => ({
            Component: m.EscalationSettingsRoute,
          })),
      },
      // Organisation → Single sign-on (issue 33 §4) was Settings → Single sign-on at first.
      { path: 'settings/sso', element: <Navigate to="/organisation/sso" replace /> },
      {
        path: 'settings/profile',
        lazy: () =>
          import('@/features/account/routes/profile.route').then((m) => ({
            Component: m.ProfileRoute,
          })),
      },
      {
        path: 'settings/security',
        lazy: () =>
          import('@/features/account/routes/security.route').then((m) => ({
            Component: m.SecurityRoute,
          })),
      },
      {
        path: 'settings/notifications',
        lazy: () =>
          import('@/features/notifications/routes/notifications.route').then((m) => ({
            Component: m.NotificationsRoute,
          })),
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

// Before the router starts its loaders: their first reads may have been asked for already.
installEarlyReads();
export const router = createBrowserRouter(routes);
