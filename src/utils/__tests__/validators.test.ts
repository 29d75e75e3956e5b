import {
  amount,
  carNo,
  chinese,
  code,
  date,
  dateISO,
  digits,
  displayText,
  email,
  enOrNum,
  idCard,
  idCardCheckChar,
  landline,
  letter,
  mobile,
  number,
  range,
  rangeLength,
  url,
} from '../validators'

type Case = [input: unknown, expected: boolean]

// Inputs no string validator may accept: the empty string (required-ness is the form's job; for
// rangeLength only when the minimum is above 0, see below) and values that are not text at all.
const NOT_TEXT: Case[] = [
  ['', false],
  [null, false],
  [undefined, false],
  [true, false],
  [{}, false],
  [[], false],
  [NaN, false],
  [Infinity, false],
]

describe.each([
  ['email', email],
  ['mobile', mobile],
  ['url', url],
  ['date', date],
  ['dateISO', dateISO],
  ['number', number],
  ['digits', digits],
  ['idCard', idCard],
  ['carNo', carNo],
  ['amount', amount],
  ['chinese', chinese],
  ['letter', letter],
  ['enOrNum', enOrNum],
  ['landline', landline],
  ['code', (v: unknown) => code(v)],
  ['range', (v: unknown) => range(v, [-1e9, 1e9])],
  ['rangeLength', (v: unknown) => rangeLength(v, [1, 100])],
] as const)('%s', (_name, validate) => {
  it.each(NOT_TEXT)('rejects %p without throwing', (input, expected) => {
    expect(validate(input)).toBe(expected)
  })
})

describe('email', () => {
  it.each<Case>([
    ['user@example.com', true],
    ['first.last+tag@sub.example.com.cn', true],
    ['a_b-c@ex-ample.org', true],
    ['USER@EXAMPLE.COM', true],
    ['user@example', false],
    ['user@@example.com', false],
    ['@example.com', false],
    ['user@', false],
    ['.user@example.com', false],
    ['user.@example.com', false],
    ['us..er@example.com', false],
    ['user@-example.com', false],
    ['user@example-.com', false],
    ['user@example.c', false],
    ['user@example.123', false],
    ['user name@example.com', false],
    [' user@example.com', false],
    ['用户@example.com', false],
    [`${'a'.repeat(64)}@example.com`, true],
    [`${'a'.repeat(65)}@example.com`, false],
    [`a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}.com`, false],
  ])('%p -> %p', (input, expected) => {
    expect(email(input)).toBe(expected)
  })
})

describe('mobile', () => {
  it.each<Case>([
    ['13800138000', true],
    ['12000000000', true],
    ['19912345678', true],
    [13800138000, true],
    ['11012345678', false],
    ['10012345678', false],
    ['23800138000', false],
    ['1380013800', false],
    ['138001380000', false],
    ['+8613800138000', false],
    ['138 0013 8000', false],
    ['138-0013-8000', false],
    [' 13800138000', false],
    ['1380013800a', false],
    ['１３８００１３８０００', false],
  ])('%p -> %p', (input, expected) => {
    expect(mobile(input)).toBe(expected)
  })
})

describe('url', () => {
  it.each<Case>([
    ['http://example.com', true],
    ['https://example.com', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['https://www.example.com.cn/path/to/page?x=1&y=2#top', true],
    ['https://example.com:8080/', true],
    ['http://localhost:3000/api', true],
    ['http://127.0.0.1:8080', true],
    ['http://[::1]:8080/', true],
    ['https://例子.中国/页面', true],
    ['https://example.com?x=1', true],
    ['ftp://example.com', false],
    ['example.com', false],
    ['//example.com', false],
    ['https://', false],
    ['https://example', false],
    ['https://example.com:99999', false],
    ['http://256.1.1.1', false],
    ['https://exa mple.com', false],
    ['https://example.com/a b', false],
    ['javascript:alert(1)', false],
    ['https://-example.com', false],
  ])('%p -> %p', (input, expected) => {
    expect(url(input)).toBe(expected)
  })
})

describe('date', () => {
  it.each<Case>([
    ['2024-01-05', true],
    ['2024/1/5', true],
    ['2024.01.05', true],
    ['2024年1月5日', true],
    ['2024-01-05 08:30', true],
    ['2024-01-05 08:30:59', true],
    ['2024-01-05T08:30:00.000Z', true],
    ['2024-01-05T08:30:00+08:00', true],
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['2023-02-29', false],
    ['1900-02-29', false],
    ['2024-02-30', false],
    ['2024-04-31', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-01-00', false],
    ['2024-01-32', false],
    ['2024-01/05', false],
    ['2024-01-05 24:00', false],
    ['2024-01-05 23:60', false],
    ['2024-01-05T08:30:00+25:00', false],
    ['2024-01-05Z', false],
    ['Jan 5 2024', false],
    ['20240105', false],
    [20240105, false],
    [new Date(2024, 0, 5), true],
    [new Date('not a date'), false],
  ])('%p -> %p', (input, expected) => {
    expect(date(input)).toBe(expected)
  })
})

describe('dateISO', () => {
  it.each<Case>([
    ['2024-01-05', true],
    ['2024/01/05', true],
    ['2024-1-5', true],
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['2023-02-29', false],
    ['2100-02-29', false],
    ['2024-06-31', false],
    ['2024-12-31', true],
    ['2024-13-01', false],
    ['2024-01-05 08:30', false],
    ['2024-01/05', false],
    ['2024.01.05', false],
    ['24-01-05', false],
    ['05-01-2024', false],
    [new Date(2024, 0, 5), false],
  ])('%p -> %p', (input, expected) => {
    expect(dateISO(input)).toBe(expected)
  })
})

describe('number', () => {
  it.each<Case>([
    ['0', true],
    ['123', true],
    ['-123', true],
    ['+123', true],
    ['3.14', true],
    ['-0.5', true],
    ['.5', true],
    ['007', true],
    [42, true],
    [-1.5, true],
    ['1.', false],
    ['1.2.3', false],
    ['1e5', false],
    ['1,000', false],
    ['-', false],
    ['+', false],
    ['.', false],
    [' 1', false],
    ['abc', false],
    ['0x1F', false],
  ])('%p -> %p', (input, expected) => {
    expect(number(input)).toBe(expected)
  })
})

describe('digits', () => {
  it.each<Case>([
    ['0', true],
    ['0123456789', true],
    [42, true],
    ['-1', false],
    ['1.5', false],
    [1.5, false],
    ['12a', false],
    ['１２', false],
    ['1 2', false],
  ])('%p -> %p', (input, expected) => {
    expect(digits(input)).toBe(expected)
  })
})

describe('idCard', () => {
  // An independent implementation of GB 11643-1999, so the validator is not checked against itself.
  const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const CHECK = ['1', '0', 'X', '9', '8', '7', '6', '5', '4', '3', '2']
  function checkChar(first17: string): string {
    const sum = first17.split('').reduce((acc, ch, i) => acc + Number(ch) * WEIGHTS[i], 0)
    return CHECK[sum % 11]
  }
  /** A synthetic, well-formed number: region, birth date YYYYMMDD, 3-digit sequence. */
  function makeId(birth: string, region = '110105', seq = '123'): string {
    const first17 = `${region}${birth}${seq}`
    return first17 + checkChar(first17)
  }
  /** Finds a sequence whose check character is `wanted`, for the X cases. */
  function makeIdEndingIn(wanted: string, birth = '19900307'): string {
    for (let seq = 0; seq < 1000; seq += 1) {
      const id = makeId(birth, '110105', String(seq).padStart(3, '0'))
      if (id.endsWith(wanted)) return id
    }
    throw new Error(`no sequence gives ${wanted}`)
  }
  function withWrongCheck(id: string): string {
    const wrong = CHECK.find((c) => c !== id[17]) ?? '0'
    return id.slice(0, 17) + wrong
  }

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date(2024, 5, 15, 12, 0, 0) })
  })

  it('agrees with the worked example of the standard', () => {
    // The example number printed in GB 11643-1999 itself, not a person's number.
    expect(idCardCheckChar('11010519491231002')).toBe('X')
    expect(idCard('11010519491231002X')).toBe(true)
  })

  it('computes the check character of every test number like the test oracle', () => {
    for (let seq = 0; seq < 200; seq += 1) {
      const first17 = `44030519851120${String(seq).padStart(3, '0')}`
      expect(idCardCheckChar(first17)).toBe(checkChar(first17))
    }
    expect(idCardCheckChar('1234')).toBeUndefined()
  })

  it.each<[string, string, boolean]>([
    ['ordinary birth date', makeId('19900307'), true],
    ['another region', makeId('19851120', '440305', '042'), true],
    ['upper-case X check character', makeIdEndingIn('X'), true],
    ['lower-case x check character', makeIdEndingIn('X').replace('X', 'x'), false],
    ['wrong check character', withWrongCheck(makeId('19900307')), false],
    ['X where a digit is due', makeId('19900307').slice(0, 17) + 'X', false],
    ['Feb 29 of a leap year', makeId('20000229'), true],
    ['Feb 29 of 2024 (leap)', makeId('20240229'), true],
    ['Feb 29 of a non-leap year', makeId('20230229'), false],
    ['Feb 29 of 1900 (not leap)', makeId('19000229'), false],
    ['Feb 30', makeId('20200230'), false],
    ['month 13', makeId('19901301'), false],
    ['day 00', makeId('19900100'), false],
    ['born today', makeId('20240615'), true],
    ['born tomorrow', makeId('20240616'), false],
    ['born next year', makeId('20250101'), false],
    ['born 1900-01-01', makeId('19000101'), true],
    ['born in 1899', makeId('18991231'), false],
    ['region starting with 0', makeId('19900307', '010105'), false],
    ['17 characters', makeId('19900307').slice(0, 17), false],
    ['19 characters', `${makeId('19900307')}1`, false],
    ['15-digit old format', '110105900307123', false],
    ['spaces around', ` ${makeId('19900307')} `, false],
  ])('%s', (_label, input, expected) => {
    expect(idCard(input)).toBe(expected)
  })

  it('follows the clock: a birthday that is in the future today is valid once it has passed', () => {
    const id = makeId('20240620')
    expect(idCard(id)).toBe(false)
    jest.setSystemTime(new Date(2024, 5, 20, 0, 0, 1))
    expect(idCard(id)).toBe(true)
  })

  it('rejects numbers, which cannot hold 18 digits exactly', () => {
    // The precision loss is the point: a number cannot carry an 18-digit ID exactly.
    // eslint-disable-next-line no-loss-of-precision
    expect(idCard(110105199003071234)).toBe(false)
  })
})

describe('carNo', () => {
  it.each<Case>([
    ['京A12345', true],
    ['粤B8K9Z2', true],
    ['沪AB1234', true],
    ['川A1234挂', true],
    ['粤Z1234港', true],
    ['粤Z1234澳', true],
    ['京A1234学', true],
    ['京A0001警', true],
    ['沪A1234领', true],
    ['使A12345', true],
    // New energy, small vehicle (uView 1.6.3): D or F + letter or digit + 4 digits.
    ['粤BD12345', true],
    ['粤BDF1234', true],
    ['京AF12345', true],
    ['京AA12345', false],
    ['沪AK12345', false],
    ['沪A1D2345', false],
    // New energy, large vehicle: 5 digits + D or F.
    ['粤B12345D', true],
    ['粤B12345F', true],
    ['粤B12345A', false],
    ['粤BD1234A', false],
    ['粤BI12345', false],
    ['粤BL12345', false],
    ['粤BDI1234', false],
    ['京A1234I', false],
    ['京AO1234', false],
    ['京a12345', false],
    ['京A1234', false],
    ['京A123456', false],
    ['京A-12345', false],
    ['京·A12345', false],
    ['XA12345', false],
    ['港A12345', false],
    ['京A12345D9', false],
    ['粤BD123456', false],
  ])('%p -> %p', (input, expected) => {
    expect(carNo(input)).toBe(expected)
  })
})

describe('amount', () => {
  it.each<Case>([
    ['0', true],
    ['0.5', true],
    ['0.01', true],
    ['0.00', true],
    ['12', true],
    ['12.3', true],
    ['12.34', true],
    ['1000000', true],
    [12.5, true],
    [0, true],
    ['12.345', false],
    ['12.', false],
    ['.5', false],
    ['-1', false],
    ['-0.01', false],
    [-1, false],
    ['+1', false],
    ['01', false],
    ['00.5', false],
    ['1,000.00', false],
    ['¥12', false],
    ['12 ', false],
    [0.1 + 0.2, false],
  ])('%p -> %p', (input, expected) => {
    expect(amount(input)).toBe(expected)
  })
})

describe('chinese', () => {
  it.each<Case>([
    ['中文', true],
    ['张三', true],
    ['〇', false],
    ['䶮', true],
    ['𠮷野家', true],
    ['龘', true],
    ['中文abc', false],
    ['中 文', false],
    ['中文。', false],
    ['阿卜杜·热合曼', false],
    ['123', false],
    ['にほんご', false],
    ['한국어', false],
  ])('%p -> %p', (input, expected) => {
    expect(chinese(input)).toBe(expected)
  })
})

describe('letter', () => {
  it.each<Case>([
    ['abc', true],
    ['ABCxyz', true],
    ['abc1', false],
    ['ab c', false],
    ['é', false],
    ['ａｂｃ', false],
    [123, false],
  ])('%p -> %p', (input, expected) => {
    expect(letter(input)).toBe(expected)
  })
})

describe('enOrNum', () => {
  it.each<Case>([
    ['abc', true],
    ['123', true],
    ['abc123XYZ', true],
    [123, true],
    ['abc_123', false],
    ['abc 123', false],
    ['abc-123', false],
    ['中文1', false],
    [-1, false],
  ])('%p -> %p', (input, expected) => {
    expect(enOrNum(input)).toBe(expected)
  })
})

describe('range', () => {
  it.each<[unknown, readonly [number, number], boolean]>([
    [5, [1, 10], true],
    [1, [1, 10], true],
    [10, [1, 10], true],
    [0, [1, 10], false],
    [11, [1, 10], false],
    ['5', [1, 10], true],
    ['5.5', [5, 6], true],
    ['-3', [-5, 0], true],
    ['10.01', [1, 10], false],
    [5, [5, 5], true],
    [5, [10, 1], false],
    [1e12, [0, Infinity], true],
    [-1e12, [-Infinity, 0], true],
    ['abc', [1, 10], false],
    ['', [0, 10], false],
    [5, [NaN, 10], false],
  ])('%p in %p -> %p', (input, bounds, expected) => {
    expect(range(input, bounds)).toBe(expected)
  })

  it('rejects malformed bounds from untyped callers', () => {
    expect(range(5, [1] as unknown as [number, number])).toBe(false)
    expect(range(5, ['1', '10'] as unknown as [number, number])).toBe(false)
    expect(range(5, null as unknown as [number, number])).toBe(false)
  })
})

describe('rangeLength', () => {
  it.each<[unknown, readonly [number, number], boolean]>([
    ['abc', [1, 3], true],
    ['a', [1, 3], true],
    ['abcd', [1, 3], false],
    ['ab', [3, 5], false],
    ['张三', [2, 2], true],
    ['𠮷', [1, 1], true],
    ['👍🏽', [2, 2], true],
    [12345, [5, 5], true],
    // uView 1.6.3: ''.length is 0, inside [0, n] and outside [1, n].
    ['', [0, 5], true],
    ['', [0, 10], true],
    ['', [1, 5], false],
    ['abc', [5, 1], false],
  ])('%p in %p -> %p', (input, bounds, expected) => {
    expect(rangeLength(input, bounds)).toBe(expected)
  })
})

describe('landline', () => {
  it.each<Case>([
    ['010-12345678', true],
    ['021-1234567', true],
    ['0755-12345678', true],
    ['0755-1234567', true],
    ['0755-12345678-123', true],
    ['010-12345678-1', true],
    ['010-12345678-123456', true],
    ['010-12345678-1234567', false],
    ['010-123456', false],
    ['010-123456789', false],
    ['01-12345678', false],
    ['01234-12345678', false],
    ['755-12345678', false],
    ['010 12345678', false],
    ['01012345678', false],
    ['(010)12345678', false],
    ['010-12345678-', false],
    ['010-12345678转123', false],
  ])('%p -> %p', (input, expected) => {
    expect(landline(input)).toBe(expected)
  })
})

describe('code', () => {
  it.each<[unknown, number | undefined, boolean]>([
    ['123456', undefined, true],
    ['000000', undefined, true],
    [123456, undefined, true],
    ['12345', undefined, false],
    ['1234567', undefined, false],
    ['12345a', undefined, false],
    ['1234', 4, true],
    ['123456', 4, false],
    ['12345678', 8, true],
    ['1', 1, true],
    ['', 0, false],
    ['123', 0, false],
    ['123', -3, false],
    ['123', 2.5, false],
    ['123', NaN, false],
  ])('%p with len %p -> %p', (input, len, expected) => {
    expect(len === undefined ? code(input) : code(input, len)).toBe(expected)
  })
})

describe('displayText', () => {
  it.each([
    ['小明', false, true],
    ['👨‍👩‍👧', false, true],
    ['\u202Egnp.exe', false, false],
    ['a\u200Bb', false, false],
    ['\u001b[31mred', false, false],
    ['\ud800', false, false],
    ['第一行\n第二行', false, false],
    ['第一行\n第二行', true, true],
    ['', false, false],
    [undefined, false, false],
  ])('%p (multiline %p) -> %p', (input, multiline, expected) => {
    expect(displayText(input, multiline)).toBe(expected)
  })
})
