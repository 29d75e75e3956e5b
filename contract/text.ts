import { z } from 'zod/mini'

/**
 * Text that other people will see (nicknames, and every later free-text field: feedback, appeals,
 * comments) must show what it says. Refused: control characters (Unicode Cc: a bell, an ANSI colour
 * escape that repaints an operator's terminal), format characters (Cf: the bidi overrides that make
 * "\u202Egnp.exe" display as "exe.png", zero-width spaces that make two names look alike) and lone
 * surrogates (half a character, which some databases and viewers reject or garble).
 *
 * One exception: the zero-width joiner between two emoji, which builds one emoji (a family, a
 * profession) and hides nothing. Multi-line fields may also contain line breaks and tabs.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}]/u
// No lookbehind: older iOS JavaScriptCore (the mini-program's engine there) cannot even parse one.
const EMOJI_JOINER = /(\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu
const LINE_BREAKS_AND_TABS = /\r\n|[\n\r\t]/g

export interface SafeTextOptions {
  /** Line breaks and tabs allowed (a description, a message); default false (a name, a title). */
  multiline?: boolean
}

/** Whether `text` is shown as it reads: no control, format or half characters (see above). */
export function isSafeDisplayText(text: string, options: SafeTextOptions = {}): boolean {
  let rest = text.replace(EMOJI_JOINER, '$1')
  if (options.multiline) rest = rest.replace(LINE_BREAKS_AND_TABS, '')
  return !UNSAFE.test(rest)
}

/** The zod/mini check for such fields: `z.string().check(z.trim(), safeDisplayText('…'))`. */
export function safeDisplayText(message: string, options: SafeTextOptions = {}) {
  return z.refine<string>((text) => isSafeDisplayText(text, options), message)
}

/** Names the system shows in place of a person's: nobody may take them as their own. */
export const RESERVED_NICKNAMES: readonly string[] = ['已注销用户']

export const NICKNAME_MAX_LENGTH = 20
export const NICKNAME_MESSAGES = {
  empty: '昵称不能为空',
  tooLong: `昵称最多 ${NICKNAME_MAX_LENGTH} 个字`,
  unsafe: '昵称不能包含控制字符或不可见字符',
  reserved: '该昵称不可用',
} as const

/** A nickname as given (trimmed): 1 to 20 characters, displayable, not a name the system uses. */
export const NicknameSchema = z.string().check(
  z.trim(),
  z.minLength(1, NICKNAME_MESSAGES.empty),
  z.maxLength(NICKNAME_MAX_LENGTH, NICKNAME_MESSAGES.tooLong),
  safeDisplayText(NICKNAME_MESSAGES.unsafe),
  z.refine((text: string) => !RESERVED_NICKNAMES.includes(text), NICKNAME_MESSAGES.reserved),
)
