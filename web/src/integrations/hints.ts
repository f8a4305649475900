/**
 * Where to paste the URL in the provider, in a sentence: for the common providers, the place their settings have
 * it; for the others a general hint. Kept short on purpose (Zulip's integration pages have the full instructions).
 */
import type { CatalogEntry } from '@confab/integrations/catalog';

const HINTS: Record<string, string> = {
  github:
    'In the repository or organization: Settings → Webhooks → Add webhook. Paste it as the Payload URL and choose the content type application/json.',
  githubsponsors:
    'In your GitHub Sponsors dashboard: Webhooks → Add webhook. Paste it as the Payload URL (content type application/json).',
  gitlab: 'In the project: Settings → Webhooks. Paste it as the URL and tick the triggers you want.',
  gitea:
    'In the repository: Settings → Webhooks → Add webhook → Gitea. Paste it as the target URL (content type application/json).',
  gogs: 'In the repository: Settings → Webhooks → Add webhook → Gogs. Paste it as the payload URL (content type application/json).',
  bitbucket2: 'In the repository: Repository settings → Webhooks → Add webhook. Paste it as the URL.',
  bitbucket3: 'In the repository: Repository settings → Webhooks → Create webhook. Paste it as the URL.',
  azuredevops:
    'In the project: Project settings → Service hooks → Create subscription → Web Hooks. Paste it as the URL.',
  jira: 'As a Jira administrator: System → WebHooks → Create a WebHook. Paste it as the URL.',
  sentry: 'In Sentry: Settings → Integrations → WebHooks (or an internal integration). Paste it as the callback URL.',
  grafana: 'In Grafana: Alerting → Contact points → Add contact point, type Webhook. Paste it as the URL.',
  alertmanager: 'In alertmanager.yml: add a receiver with webhook_configs and paste it as its url.',
  pagerduty: 'In PagerDuty: Integrations → Generic Webhooks (v3) → New Webhook. Paste it as the webhook URL.',
  opsgenie: 'In Opsgenie: Settings → Integrations → Add integration → Webhook. Paste it as the webhook URL.',
  circleci: 'In the CircleCI project: Project Settings → Webhooks → Add Webhook. Paste it as the receiver URL.',
  travis: 'In .travis.yml: under notifications → webhooks, paste it as the URL.',
  semaphore: 'In the Semaphore project: Settings → Notifications → Webhook. Paste it as the endpoint.',
  newrelic: 'In New Relic: Alerts → Destinations → Webhook. Paste it as the endpoint URL.',
  uptimerobot: 'In UptimeRobot: My Settings → Alert Contacts → Add → Webhook. Paste it as the URL to notify.',
  heroku:
    'In the Heroku app: More → View webhooks → Create webhook (api:build and api:release). Paste it as the payload URL.',
  netlify: 'In the Netlify site: Site configuration → Notifications → Outgoing webhook. Paste it as the URL to notify.',
  trello: "Trello asks its API to create the webhook: send this URL as callbackURL to Trello's webhooks API.",
  stripe: 'In the Stripe dashboard: Developers → Webhooks → Add endpoint. Paste it as the endpoint URL.',
  zendesk:
    'In Zendesk: Admin Center → Apps and integrations → Webhooks, with basic authentication (below). Paste it as the endpoint URL.',
  freshdesk:
    'In Freshdesk: Admin → Automations, action "Trigger webhook", with basic authentication (below). Paste it as the callback URL.',
  intercom: 'In the Intercom Developer Hub: your app → Webhooks. Paste it as the endpoint URL.',
  linear: 'In Linear: Settings → API → Webhooks → New webhook. Paste it as the URL.',
  slack_incoming: 'Paste it where a tool asks for a Slack incoming webhook URL: it accepts the same messages.',
  zapier: 'In a Zap: add the action "Webhooks by Zapier" → POST, and paste it as the URL.',
  ifttt: 'In an IFTTT applet: the action "Webhooks → Make a web request", method POST, content type application/json.',
  json: 'Any service that posts JSON: paste it where it asks for a webhook URL.',
};

/** The hint for an entry: its own, or where most providers put it. */
export function hintFor(entry: Pick<CatalogEntry, 'name' | 'displayName' | 'auth'>): string {
  const own = HINTS[entry.name];
  if (own) return own;
  const basic = entry.auth === 'basic' ? ', with basic authentication (below)' : '';
  return `In ${entry.displayName}, find its webhook or notification settings (often Settings → Webhooks or Integrations) and paste it as the webhook URL${basic}.`;
}
