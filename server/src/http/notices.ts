import type { FastifyInstance, FastifyRequest } from 'fastify'

/**
 * Sends a security notice to a phone, best effort: the change it reports is already made, so a
 * gateway failure is logged for the operator (without the number) rather than failing the request.
 */
export async function sendNotice(
  app: FastifyInstance,
  request: FastifyRequest,
  mobile: string,
  text: string,
): Promise<void> {
  try {
    await app.providers.smsNotices.notify(mobile, text)
  } catch (error) {
    request.log.warn({ err: { message: (error as Error).message } }, 'security notice not sent')
  }
}
