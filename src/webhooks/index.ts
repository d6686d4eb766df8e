// What `voice-sandbox/webhooks` offers: signing, validation and a receiver middleware, with no msw or express at runtime.
export type { OutboundKind, OutboundRequest, OutboundResult, WebhookSender } from "./contract.js";
export type { AttemptOutcome, DeliveryAttempt, DeliveryFilter } from "./delivery-log.js";
export { createWebhookDispatcher, type WebhookDispatcher } from "./dispatcher.js";
export type { ReceivedWebhook, ReceiverAnswer, WebhookReceiver } from "./in-process-receivers.js";
export { isSandboxWebhook } from "./own-requests.js";
export {
  createWebhookReceiverMiddleware,
  type ReceiverMiddlewareOptions,
  type ReceiverRequest,
  verify as verifyWebhookRequest,
} from "./receiver-middleware.js";
export {
  computeSignature,
  type SignedParams,
  signatureHeader,
  twilioSignatureHeader,
  validateSignature,
} from "./sign.js";
export { defaultWebhookOptions, type WebhookOptions } from "./webhook-options.js";
