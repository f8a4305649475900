import type { Integration } from '../framework.js';
import { int, str } from '../toolkit/wild.js';

/** Delighted (zerver/webhooks/delighted): a survey response, a promoter's (score 7 and up) or other feedback. */
export const delighted: Integration = {
  name: 'delighted',
  webhookName: 'Delighted',
  handle(request) {
    const data = request.json().event_data;
    const email = str(data.person.email);
    const score = int(data.score);
    const comment = str(data.comment);
    const opening = score >= 7 ? 'Kudos! You have a new promoter.' : 'Great! You have new feedback.';
    return {
      topic: 'Survey response',
      content: `${opening} Score of ${score}/10 from ${email}:\n\n\`\`\` quote\n${comment}\n\`\`\``,
    };
  },
};
