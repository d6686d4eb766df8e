// The route table: every route of every surface, as data.
import { accountRoutes } from "./account-api/accounts.js";
import { agentExtensionRoutes } from "./account-api/agent-extensions.js";
import { applicationRoutes } from "./account-api/applications.js";
import { assignedAddOnRoutes } from "./account-api/assigned-add-ons.js";
import { availablePhoneNumberRoutes } from "./account-api/available-phone-numbers.js";
import { callRoutes } from "./account-api/calls.js";
import { conferenceParticipantRoutes } from "./account-api/conference-participants.js";
import { conferenceRecordingRoutes } from "./account-api/conference-recordings.js";
import { conferenceRoutes } from "./account-api/conferences.js";
import { incomingPhoneNumberRoutes } from "./account-api/incoming-phone-numbers.js";
import { keyRoutes } from "./account-api/keys.js";
import { messageMediaRoutes } from "./account-api/message-media.js";
import { messageRoutes } from "./account-api/messages.js";
import { notificationRoutes } from "./account-api/notifications.js";
import { outgoingCallerIdRoutes } from "./account-api/outgoing-caller-ids.js";
import { queueRoutes } from "./account-api/queues.js";
import { recordingRoutes } from "./account-api/recordings.js";
import { streamRoutes } from "./account-api/streams.js";
import { transcriptionRoutes } from "./account-api/transcriptions.js";
import { usageRoutes } from "./account-api/usage-records.js";
import { accountSettingsRoutes } from "./admin-api/account-settings.js";
import { agentRoutes } from "./admin-api/agents.js";
import { clockRoutes } from "./admin-api/clock.js";
import { conversationAudioRoutes } from "./admin-api/conversation-audio.js";
import { credentialRoutes } from "./admin-api/credentials.js";
import { engineRoutes } from "./admin-api/engine.js";
import { faultRoutes } from "./admin-api/faults.js";
import { healthRoutes } from "./admin-api/health.js";
import { mediaRoutes } from "./admin-api/media.js";
import { mediaBudgetRoutes } from "./admin-api/media-budget.js";
import { openApiRoutes } from "./admin-api/openapi.js";
import { requestRoutes } from "./admin-api/requests.js";
import { scenarioRoutes } from "./admin-api/scenarios.js";
import { stateRoutes } from "./admin-api/state.js";
import { webhookRoutes } from "./admin-api/webhooks.js";
import { carrierAccountRoutes } from "./carrier-api/accounts.js";
import { carrierAgentExtensionRoutes } from "./carrier-api/agent-extensions.js";
import { carrierBalanceRoutes } from "./carrier-api/balances.js";
import { carrierEventRoutes } from "./carrier-api/events.js";
import { carrierMessageRoutes } from "./carrier-api/messages.js";
import { carrierPhoneCallRoutes } from "./carrier-api/phone-calls.js";
import { carrierPhoneNumberStatsRoutes } from "./carrier-api/phone-number-stats.js";
import { carrierPhoneNumberRoutes } from "./carrier-api/phone-numbers.js";
import { carrierRateRoutes } from "./carrier-api/rates.js";
import { carrierRingGroupRoutes } from "./carrier-api/ring-groups.js";
import { carrierSipTrunkRoutes } from "./carrier-api/sip-trunks.js";
import { carrierTtsEventRoutes } from "./carrier-api/tts-events.js";
import type { AnyRoute } from "./route.js";

export const routes: AnyRoute[] = [
  ...accountRoutes,
  ...keyRoutes,
  ...usageRoutes,
  ...applicationRoutes,
  ...outgoingCallerIdRoutes,
  ...incomingPhoneNumberRoutes,
  ...assignedAddOnRoutes,
  ...callRoutes,
  ...notificationRoutes,
  ...messageRoutes,
  ...messageMediaRoutes,
  ...recordingRoutes,
  ...transcriptionRoutes,
  ...availablePhoneNumberRoutes,
  ...agentExtensionRoutes,
  ...conferenceRoutes,
  ...conferenceParticipantRoutes,
  ...conferenceRecordingRoutes,
  ...queueRoutes,
  ...streamRoutes,
  ...mediaRoutes,
  ...conversationAudioRoutes,
  ...mediaBudgetRoutes,
  ...agentRoutes,
  ...carrierAccountRoutes,
  ...carrierAgentExtensionRoutes,
  ...carrierBalanceRoutes,
  ...carrierEventRoutes,
  ...carrierMessageRoutes,
  ...carrierPhoneCallRoutes,
  // Before phone numbers: `/phone_numbers/stats` would otherwise match `/phone_numbers/:id`.
  ...carrierPhoneNumberStatsRoutes,
  ...carrierPhoneNumberRoutes,
  ...carrierRateRoutes,
  ...carrierRingGroupRoutes,
  ...carrierSipTrunkRoutes,
  ...carrierTtsEventRoutes,
  ...healthRoutes,
  ...stateRoutes,
  ...credentialRoutes,
  ...accountSettingsRoutes,
  ...engineRoutes,
  ...clockRoutes,
  ...requestRoutes,
  ...faultRoutes,
  ...openApiRoutes,
  ...webhookRoutes,
  ...scenarioRoutes,
];
