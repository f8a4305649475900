import type { Integration } from './framework.js';
import { basecamp } from './integrations/basecamp.js';
import { clubhouse } from './integrations/clubhouse.js';
import { freshdesk } from './integrations/freshdesk.js';
import { front } from './integrations/front.js';
import { greenhouse } from './integrations/greenhouse.js';
import { groove } from './integrations/groove.js';
import { helloworld } from './integrations/helloworld.js';
import { intercom } from './integrations/intercom.js';
import { jira } from './integrations/jira.js';
import { linear } from './integrations/linear.js';
import { openproject } from './integrations/openproject.js';
import { patreon } from './integrations/patreon.js';
import { pivotal } from './integrations/pivotal.js';
import { stripe } from './integrations/stripe.js';
import { taiga } from './integrations/taiga.js';
import { trello } from './integrations/trello.js';
import { wekan } from './integrations/wekan.js';
import { zendesk } from './integrations/zendesk.js';
// generic, and monitoring/CI A–H
import { slack_incoming } from './integrations/slack_incoming.js';
import { slack } from './integrations/slack.js';
import { json } from './integrations/json.js';
import { zapier } from './integrations/zapier.js';
import { ifttt } from './integrations/ifttt.js';
import { grafana } from './integrations/grafana.js';
import { alertmanager } from './integrations/alertmanager.js';
import { circleci } from './integrations/circleci.js';
import { ansibletower } from './integrations/ansibletower.js';
import { freshstatus } from './integrations/freshstatus.js';
import { flock } from './integrations/flock.js';
import { airbrake } from './integrations/airbrake.js';
import { airbyte } from './integrations/airbyte.js';
import { appfollow } from './integrations/appfollow.js';
import { appveyor } from './integrations/appveyor.js';
import { buildbot } from './integrations/buildbot.js';
import { codeship } from './integrations/codeship.js';
import { crashlytics } from './integrations/crashlytics.js';
import { canarytoken } from './integrations/canarytoken.js';
import { delighted } from './integrations/delighted.js';
import { dropbox } from './integrations/dropbox.js';
import { errbit } from './integrations/errbit.js';
import { freshping } from './integrations/freshping.js';
import { gocd } from './integrations/gocd.js';
import { gosquared } from './integrations/gosquared.js';
import { heroku } from './integrations/heroku.js';
import { hellosign } from './integrations/hellosign.js';
import { homeassistant } from './integrations/homeassistant.js';
import { harbor } from './integrations/harbor.js';
// end: generic, and monitoring/CI A–H
// monitoring, CI and operations I–Z
import { sentry } from './integrations/sentry.js';
import { pagerduty } from './integrations/pagerduty.js';
import { opsgenie } from './integrations/opsgenie.js';
import { travis } from './integrations/travis.js';
import { newrelic } from './integrations/newrelic.js';
import { splunk } from './integrations/splunk.js';
import { uptimerobot } from './integrations/uptimerobot.js';
import { zabbix } from './integrations/zabbix.js';
import { teamcity } from './integrations/teamcity.js';
import { semaphore } from './integrations/semaphore.js';
import { netlify } from './integrations/netlify.js';
import { papertrail } from './integrations/papertrail.js';
import { wordpress } from './integrations/wordpress.js';
import { radarr } from './integrations/radarr.js';
import { sonarr } from './integrations/sonarr.js';
import { lidarr } from './integrations/lidarr.js';
import { thinkst } from './integrations/thinkst.js';
import { raygun } from './integrations/raygun.js';
import { librato } from './integrations/librato.js';
import { rundeck } from './integrations/rundeck.js';
import { sonarqube } from './integrations/sonarqube.js';
import { updown } from './integrations/updown.js';
import { statuspage } from './integrations/statuspage.js';
import { pingdom } from './integrations/pingdom.js';
import { opensearch } from './integrations/opensearch.js';
import { insping } from './integrations/insping.js';
import { opencollective } from './integrations/opencollective.js';
import { transifex } from './integrations/transifex.js';
import { mention } from './integrations/mention.js';
// end of monitoring, CI and operations I–Z
// version control: GitLab, Bitbucket, Beanstalk, Azure DevOps, RhodeCode, Review Board
import { gitlab } from './integrations/gitlab/index.js';
import { bitbucket2 } from './integrations/bitbucket2.js';
import { bitbucket3 } from './integrations/bitbucket3.js';
import { bitbucket } from './integrations/bitbucket.js';
import { beanstalk } from './integrations/beanstalk.js';
import { azuredevops } from './integrations/azuredevops.js';
import { rhodecode } from './integrations/rhodecode.js';
import { reviewboard } from './integrations/reviewboard.js';
// version control: GitHub, Gitea, Gogs
import { gitea } from './integrations/gitea.js';
import { github, githubsponsors } from './integrations/github/index.js';
import { gogs } from './integrations/gogs.js';

/**
 * The integrations implemented so far, by URL name. Adding one: write `integrations/<name>.ts` exporting an
 * `Integration`, list it here, and give it a unit test (docs/integrations.md). A name of the catalog (catalog.ts)
 * without a module answers that it is not available yet.
 */
const MODULES: readonly Integration[] = [
  helloworld,
  // project management and support
  taiga,
  clubhouse,
  jira,
  trello,
  basecamp,
  pivotal,
  wekan,
  linear,
  openproject,
  intercom,
  front,
  stripe,
  zendesk,
  freshdesk,
  groove,
  greenhouse,
  patreon,
  // generic, and monitoring/CI A–H
  slack_incoming,
  slack,
  json,
  zapier,
  ifttt,
  grafana,
  alertmanager,
  circleci,
  ansibletower,
  freshstatus,
  flock,
  airbrake,
  airbyte,
  appfollow,
  appveyor,
  buildbot,
  codeship,
  crashlytics,
  canarytoken,
  delighted,
  dropbox,
  errbit,
  freshping,
  gocd,
  gosquared,
  heroku,
  hellosign,
  homeassistant,
  harbor,
  // end: generic, and monitoring/CI A–H
  // monitoring, CI and operations I–Z
  sentry,
  pagerduty,
  opsgenie,
  travis,
  newrelic,
  splunk,
  uptimerobot,
  zabbix,
  teamcity,
  semaphore,
  netlify,
  papertrail,
  wordpress,
  radarr,
  sonarr,
  lidarr,
  thinkst,
  raygun,
  librato,
  rundeck,
  sonarqube,
  updown,
  statuspage,
  pingdom,
  opensearch,
  insping,
  opencollective,
  transifex,
  mention,
  // end of monitoring, CI and operations I–Z
  // version control: GitLab, Bitbucket, Beanstalk, Azure DevOps, RhodeCode, Review Board
  gitlab,
  bitbucket2,
  bitbucket3,
  bitbucket,
  beanstalk,
  azuredevops,
  rhodecode,
  reviewboard,
  // version control: GitHub, Gitea, Gogs
  github,
  githubsponsors,
  gitea,
  gogs,
];

export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map(MODULES.map((m) => [m.name, m]));

/** The module of an integration, by its URL name. */
export function integration(name: string): Integration | undefined {
  return INTEGRATIONS.get(name);
}
