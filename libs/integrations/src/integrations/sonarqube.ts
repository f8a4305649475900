import type { Integration, Json } from '../framework.js';
import { str, strOrNone } from '../toolkit/wild.js';

/**
 * SonarQube (zerver/webhooks/sonarqube): a project's analysis and the quality gate's failed conditions, in the topic
 * "<project> / <branch>" (the project alone without a branch).
 */

const INVERSE_OPERATORS: Record<string, string> = {
  WORSE_THAN: 'should be better or equal to',
  GREATER_THAN: 'should be less than or equal to',
  LESS_THAN: 'should be greater than or equal to',
};

function condition(c: Json): string {
  const metric = str(c.metric).split('_').join(' ');
  const operator = str(c.operator);
  const inverse = INVERSE_OPERATORS[operator] ?? operator;
  const value = str(c.value ?? 'no value');
  const status = str(c.status).toLowerCase();
  const threshold = str(c.errorThreshold);
  if (value === 'no value') return `* ${metric}: **${status}**.`;
  return `* ${metric}: **${status}** ${value} ${inverse} ${threshold}.`;
}

function conditions(list: Json): string {
  return (list as Json[])
    .filter((c) => !['ok', 'no_value'].includes(str(c.status).toLowerCase()))
    .map(condition)
    .join('\n');
}

export const sonarqube: Integration = {
  name: 'sonarqube',
  webhookName: 'Sonarqube',
  handle(request) {
    const payload = request.json();
    const project = str(payload.project.name);
    const branch = 'branch' in payload ? strOrNone(payload.branch.name) : null;
    const url = str(payload.project.url);
    const status = str(payload.qualityGate.status).toLowerCase() === 'ok' ? 'success' : 'error';
    const failed = conditions(payload.qualityGate.conditions);
    const head = branch
      ? `Project [${project}](${url}) analysis of branch ${branch} resulted in ${status}`
      : `Project [${project}](${url}) analysis resulted in ${status}`;
    return { topic: branch ? `${project} / ${branch}` : project, content: failed ? `${head}:\n${failed}` : `${head}.` };
  },
};
