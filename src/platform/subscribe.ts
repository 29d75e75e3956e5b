import Taro from '@tarojs/taro'

/*
 * WeChat subscribe messages: one tap grants one message per template, so the mini-program asks on
 * the tap that submits. Template ids are configuration (`TARO_APP_SUBSCRIBE_CONSULT`, comma
 * separated, at most 3); none configured, nothing is asked. Web pages have no such thing.
 */

function consultTemplateIds(): string[] {
  let raw: string | undefined
  try {
    raw = process.env.TARO_APP_SUBSCRIBE_CONSULT
  } catch {
    // Not defined in any env file: a real process.env read, which throws where process is absent.
    raw = undefined
  }
  return (raw ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
    .slice(0, 3)
}

/**
 * Asks for the consultation's subscribe messages; never throws and never blocks the submit.
 * Answers whether the person accepted at least one template (the consent ledger records it).
 */
export async function askConsultSubscription(): Promise<boolean> {
  if (process.env.TARO_ENV !== 'weapp') return false
  const tmplIds = consultTemplateIds()
  if (tmplIds.length === 0) return false
  try {
    const answer = (await Taro.requestSubscribeMessage({ tmplIds, entityIds: [] })) as unknown as
      Record<string, string> | undefined
    return tmplIds.some((id) => answer?.[id] === 'accept')
  } catch {
    // Refused or unsupported: the 我的消息 entries still tell the person.
    return false
  }
}
