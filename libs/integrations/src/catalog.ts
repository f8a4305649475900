import type { WebhookAuth } from './framework.js';

/**
 * Every incoming webhook integration of Zulip's list (zerver/lib/integrations.py, WEBHOOK_INTEGRATIONS): its URL name,
 * the name shown to people, its categories, how it authenticates and which methods its provider uses. Metadata only,
 * without the translations, so that the web client's integrations page and the gateway can read it cheaply; the
 * modules that translate each provider's events are in ./integrations/ (registry.ts). docs/integrations.md.
 */
export interface CatalogEntry {
  /** The URL name: /api/v1/external/{name}. */
  name: string;
  displayName: string;
  categories: readonly Category[];
  /** `api_key` (query string or form body) unless the integration takes HTTP Basic `email:api_key` (Zulip's four). */
  auth?: WebhookAuth;
  /**
   * Methods the provider uses besides POST (Trello and Intercom check the URL with HEAD, Dropbox's challenge is a
   * GET). Zulip hands every method to the integration; these are the ones that mean something.
   */
  methods?: readonly string[];
  /** The Zulip directory the integration lives in, when it is another's (GitHub Sponsors is GitHub's). */
  dirName?: string;
  /** Listed by Zulip as a legacy integration. */
  legacy?: boolean;
}

/** Zulip's CATEGORIES, with the labels its integrations page shows. */
export const CATEGORIES = {
  'meta-integration': 'Integration frameworks',
  bots: 'Interactive bots',
  'video-calling': 'Video calling',
  'continuous-integration': 'Continuous integration',
  'customer-support': 'Customer support',
  deployment: 'Deployment',
  entertainment: 'Entertainment',
  communication: 'Communication',
  financial: 'Financial',
  hr: 'Human resources',
  marketing: 'Marketing',
  misc: 'Miscellaneous',
  monitoring: 'Monitoring',
  'project-management': 'Project management',
  productivity: 'Productivity',
  'version-control': 'Version control',
} as const;

export type Category = keyof typeof CATEGORIES;

/** Zulip's incoming webhook integrations (as of Zulip 11.0-dev, 2025-05), in name order. */
export const CATALOG: readonly CatalogEntry[] = [
  { name: 'airbrake', displayName: 'Airbrake', categories: ['monitoring'] },
  { name: 'airbyte', displayName: 'Airbyte', categories: ['monitoring'] },
  { name: 'alertmanager', displayName: 'Prometheus Alertmanager', categories: ['monitoring'] },
  { name: 'ansibletower', displayName: 'Ansible Tower', categories: ['deployment'] },
  { name: 'appfollow', displayName: 'AppFollow', categories: ['customer-support'] },
  { name: 'appveyor', displayName: 'AppVeyor', categories: ['continuous-integration'] },
  { name: 'azuredevops', displayName: 'AzureDevOps', categories: ['version-control'] },
  { name: 'basecamp', displayName: 'Basecamp', categories: ['project-management'] },
  { name: 'beanstalk', displayName: 'Beanstalk', categories: ['version-control'], auth: 'basic' },
  { name: 'beeminder', displayName: 'Beeminder', categories: ['misc'] },
  { name: 'bitbucket', displayName: 'Bitbucket', categories: ['version-control'], auth: 'basic', legacy: true },
  { name: 'bitbucket2', displayName: 'Bitbucket', categories: ['version-control'] },
  { name: 'bitbucket3', displayName: 'Bitbucket Server', categories: ['version-control'] },
  { name: 'buildbot', displayName: 'Buildbot', categories: ['continuous-integration'] },
  { name: 'canarytoken', displayName: 'Thinkst Canarytokens', categories: ['monitoring'] },
  { name: 'circleci', displayName: 'CircleCI', categories: ['continuous-integration'] },
  { name: 'clubhouse', displayName: 'Clubhouse', categories: ['project-management'] },
  { name: 'codeship', displayName: 'Codeship', categories: ['continuous-integration', 'deployment'] },
  { name: 'crashlytics', displayName: 'Crashlytics', categories: ['monitoring'] },
  { name: 'delighted', displayName: 'Delighted', categories: ['customer-support', 'marketing'] },
  { name: 'dialogflow', displayName: 'Dialogflow', categories: ['customer-support'] },
  { name: 'dropbox', displayName: 'Dropbox', categories: ['productivity'], methods: ['POST', 'GET'] },
  { name: 'errbit', displayName: 'Errbit', categories: ['monitoring'] },
  { name: 'flock', displayName: 'Flock', categories: ['customer-support'] },
  { name: 'freshdesk', displayName: 'Freshdesk', categories: ['customer-support'], auth: 'basic' },
  { name: 'freshping', displayName: 'Freshping', categories: ['monitoring'] },
  { name: 'freshstatus', displayName: 'Freshstatus', categories: ['monitoring', 'customer-support'] },
  { name: 'front', displayName: 'Front', categories: ['customer-support'] },
  { name: 'gitea', displayName: 'Gitea', categories: ['version-control'] },
  { name: 'github', displayName: 'GitHub', categories: ['version-control'] },
  { name: 'githubsponsors', displayName: 'GitHub Sponsors', categories: ['financial'], dirName: 'github' },
  { name: 'gitlab', displayName: 'GitLab', categories: ['version-control'] },
  { name: 'gocd', displayName: 'GoCD', categories: ['continuous-integration'] },
  { name: 'gogs', displayName: 'Gogs', categories: ['version-control'] },
  { name: 'gosquared', displayName: 'GoSquared', categories: ['marketing'] },
  { name: 'grafana', displayName: 'Grafana', categories: ['monitoring'] },
  { name: 'greenhouse', displayName: 'Greenhouse', categories: ['hr'] },
  { name: 'groove', displayName: 'Groove', categories: ['customer-support'] },
  { name: 'harbor', displayName: 'Harbor', categories: ['deployment', 'productivity'] },
  { name: 'hellosign', displayName: 'HelloSign', categories: ['productivity', 'hr'] },
  { name: 'helloworld', displayName: 'Hello World', categories: ['misc'] },
  { name: 'heroku', displayName: 'Heroku', categories: ['deployment'] },
  { name: 'homeassistant', displayName: 'Home Assistant', categories: ['misc'] },
  { name: 'ifttt', displayName: 'IFTTT', categories: ['meta-integration'] },
  { name: 'insping', displayName: 'Insping', categories: ['monitoring'] },
  { name: 'intercom', displayName: 'Intercom', categories: ['customer-support'], methods: ['POST', 'HEAD'] },
  { name: 'jira', displayName: 'Jira', categories: ['project-management'] },
  { name: 'jotform', displayName: 'Jotform', categories: ['misc'] },
  { name: 'json', displayName: 'JSON formatter', categories: ['misc'] },
  { name: 'librato', displayName: 'Librato', categories: ['monitoring'] },
  { name: 'lidarr', displayName: 'Lidarr', categories: ['entertainment'] },
  { name: 'linear', displayName: 'Linear', categories: ['project-management'] },
  { name: 'mention', displayName: 'Mention', categories: ['marketing'] },
  { name: 'netlify', displayName: 'Netlify', categories: ['continuous-integration', 'deployment'] },
  { name: 'newrelic', displayName: 'New Relic', categories: ['monitoring'] },
  { name: 'opencollective', displayName: 'Open Collective', categories: ['financial'] },
  { name: 'openproject', displayName: 'OpenProject', categories: ['project-management'] },
  { name: 'opensearch', displayName: 'OpenSearch', categories: ['monitoring'] },
  { name: 'opsgenie', displayName: 'Opsgenie', categories: ['meta-integration', 'monitoring'] },
  { name: 'pagerduty', displayName: 'PagerDuty', categories: ['monitoring'] },
  { name: 'papertrail', displayName: 'Papertrail', categories: ['monitoring'] },
  { name: 'patreon', displayName: 'Patreon', categories: ['financial'] },
  { name: 'pingdom', displayName: 'Pingdom', categories: ['monitoring'] },
  { name: 'pivotal', displayName: 'Pivotal Tracker', categories: ['project-management'] },
  { name: 'radarr', displayName: 'Radarr', categories: ['entertainment'] },
  { name: 'raygun', displayName: 'Raygun', categories: ['monitoring'] },
  { name: 'reviewboard', displayName: 'Review Board', categories: ['version-control'] },
  { name: 'rhodecode', displayName: 'RhodeCode', categories: ['version-control'] },
  { name: 'rundeck', displayName: 'Rundeck', categories: ['deployment'] },
  { name: 'semaphore', displayName: 'Semaphore', categories: ['continuous-integration', 'deployment'] },
  { name: 'sentry', displayName: 'Sentry', categories: ['monitoring'] },
  { name: 'slack', displayName: 'Slack', categories: ['communication'] },
  {
    name: 'slack_incoming',
    displayName: 'Slack-compatible webhook',
    categories: ['communication', 'meta-integration'],
  },
  { name: 'sonarqube', displayName: 'SonarQube', categories: ['continuous-integration'] },
  { name: 'sonarr', displayName: 'Sonarr', categories: ['entertainment'] },
  { name: 'splunk', displayName: 'Splunk', categories: ['monitoring'] },
  { name: 'statuspage', displayName: 'Statuspage', categories: ['customer-support'] },
  { name: 'stripe', displayName: 'Stripe', categories: ['financial'] },
  { name: 'taiga', displayName: 'Taiga', categories: ['project-management'] },
  { name: 'teamcity', displayName: 'Teamcity', categories: ['continuous-integration'] },
  { name: 'thinkst', displayName: 'Thinkst', categories: ['monitoring'] },
  { name: 'transifex', displayName: 'Transifex', categories: ['misc'] },
  { name: 'travis', displayName: 'Travis CI', categories: ['continuous-integration'] },
  { name: 'trello', displayName: 'Trello', categories: ['project-management'], methods: ['POST', 'HEAD'] },
  { name: 'updown', displayName: 'Updown', categories: ['monitoring'] },
  { name: 'uptimerobot', displayName: 'UptimeRobot', categories: ['monitoring'] },
  { name: 'wekan', displayName: 'Wekan', categories: ['productivity'] },
  { name: 'wordpress', displayName: 'WordPress', categories: ['marketing'] },
  { name: 'zabbix', displayName: 'Zabbix', categories: ['monitoring'] },
  { name: 'zapier', displayName: 'Zapier', categories: ['meta-integration'] },
  { name: 'zendesk', displayName: 'Zendesk', categories: ['customer-support'], auth: 'basic' },
];

const BY_NAME = new Map(CATALOG.map((entry) => [entry.name, entry]));

/** The catalog entry of an integration, by its URL name. */
export function catalogEntry(name: string): CatalogEntry | undefined {
  return BY_NAME.get(name);
}

/** Whether the integration authenticates with HTTP Basic `email:api_key` rather than an `api_key` parameter. */
export function usesBasicAuth(name: string): boolean {
  return BY_NAME.get(name)?.auth === 'basic';
}
