import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { REASONS } from '@contract/reasons'
import { createFieldCipher } from '../../../src/crypto/field-cipher'
import type { DB } from '../../../src/db'
import {
  bindIdCard,
  findBoundCardByPhone,
  ID_CARD_ALREADY_BOUND,
  ID_CARD_TAKEN,
  listBoundCards,
} from '../../../src/domain/profile/id-cards'
import { idCardNumberProblem, maskIdNumber } from '../../../src/domain/identity/id-card-number'
import { maskName as maskHolderName } from '../../../src/masking'
import { ApiError } from '../../../src/http/errors'
import { Clock, migratedDb, signUp, validIdNumber } from './support'

const today = new Date('2030-06-01T08:00:00.000Z')
const cipher = createFieldCipher(Buffer.alloc(32, 3))

test('GB 11643: the check character, the birth date and the region are checked', () => {
  assert.equal(idCardNumberProblem('11010519491231002X', today), null, 'the standard example')
  assert.equal(idCardNumberProblem(validIdNumber(), today), null)
  assert.equal(idCardNumberProblem('110105194912310021', today), '身份证号校验位不正确，请核对')
  assert.equal(
    idCardNumberProblem(validIdNumber('19900230'), today),
    '身份证号中的出生日期不正确，请核对',
    'no 30 February',
  )
  assert.equal(
    idCardNumberProblem(validIdNumber('20300602'), today),
    '身份证号中的出生日期不正确，请核对',
    'not born tomorrow',
  )
  assert.equal(idCardNumberProblem(validIdNumber('20300601'), today), null, 'born today is fine')
  assert.equal(
    idCardNumberProblem(validIdNumber('18991231'), today),
    '身份证号中的出生日期不正确，请核对',
  )
  assert.equal(
    idCardNumberProblem(validIdNumber('19900307', 1, '990105'), today),
    '身份证号的地区码不正确，请核对',
  )
  assert.equal(
    idCardNumberProblem('11010519491231002x', today),
    '请输入 18 位身份证号，末位 X 请大写',
  )
})

test('numbers and names are masked as 110***********123X and 张**', () => {
  assert.equal(maskIdNumber('11010519900307123X'), '110***********123X')
  assert.equal(maskIdNumber('11010519900307123X').length, 18)
  assert.equal(maskHolderName('张三丰'), '张**')
  assert.equal(maskHolderName('张三'), '张*')
  assert.equal(maskHolderName('欧阳·娜娜'), '欧****')
})

test('the field cipher: AES-256-GCM with a random IV, tamper-evident, keyed digest', () => {
  const number = validIdNumber()
  const a = cipher.encrypt(number)
  const b = cipher.encrypt(number)
  assert.notEqual(a, b, 'random IV: equal plaintexts do not look equal')
  assert.ok(!a.includes(number))
  assert.match(a, /^v1\./)
  assert.equal(cipher.decrypt(a), number)
  const [version, iv, tag, body] = a.split('.')
  const flipped = Buffer.from(body!, 'base64url')
  flipped[0] = flipped[0]! ^ 1
  assert.throws(() => cipher.decrypt([version, iv, tag, flipped.toString('base64url')].join('.')))
  assert.throws(
    () => createFieldCipher(Buffer.alloc(32, 4)).decrypt(a),
    'another key cannot read it',
  )
  assert.equal(cipher.digest(number), cipher.digest(number))
  assert.notEqual(cipher.digest(number), createFieldCipher(Buffer.alloc(32, 4)).digest(number))
  assert.throws(() => createFieldCipher(Buffer.alloc(16)), /32 bytes/)
})

let db: DB
const clock = new Clock()
before(async () => {
  db = await migratedDb()
})

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error))
    return error
  }
  assert.fail('expected a refusal')
}

test('binding stores the card encrypted and answers it masked', async () => {
  const { user, mobile } = await signUp(db, clock.now())
  const number = validIdNumber('19850101', 201)
  const card = await bindIdCard(
    db,
    cipher,
    user.id,
    { realName: '张三丰', idCard: number },
    clock.now(),
  )
  assert.equal(card.kind, 'idcard')
  assert.equal(card.holderMasked, '张**')
  assert.equal(card.numberMasked, maskIdNumber(number))
  const row = await db
    .selectFrom('id_cards')
    .selectAll()
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow()
  assert.ok(!JSON.stringify(row).includes(number), 'no plaintext number in the row')
  assert.ok(!JSON.stringify(row).includes('张三丰'), 'no plaintext name in the row')
  assert.deepEqual(await listBoundCards(db, cipher, user.id), [card])
  assert.deepEqual(await findBoundCardByPhone(db, cipher, { id: user.id, mobile }, mobile!), card)

  // The same number again is answered with the card (a retried request); another one is refused.
  assert.deepEqual(
    await bindIdCard(db, cipher, user.id, { realName: '张三丰', idCard: number }, clock.now()),
    card,
  )
  const second = await refusal(
    bindIdCard(
      db,
      cipher,
      user.id,
      { realName: '张三丰', idCard: validIdNumber('19850101', 202) },
      clock.now(),
    ),
  )
  assert.equal(second.userMessage, ID_CARD_ALREADY_BOUND)
})

test('a number bound to one account is refused on another', async () => {
  const first = await signUp(db, clock.now())
  const other = await signUp(db, clock.now())
  const number = validIdNumber('19920202', 301)
  await bindIdCard(db, cipher, first.user.id, { realName: '李四', idCard: number }, clock.now())
  const error = await refusal(
    bindIdCard(db, cipher, other.user.id, { realName: '李四', idCard: number }, clock.now()),
  )
  assert.equal(error.statusCode, 400)
  assert.equal(error.userMessage, ID_CARD_TAKEN)
  assert.equal(error.reason, REASONS.idCardTaken)
  assert.deepEqual(await listBoundCards(db, cipher, other.user.id), [])
})

test('a wrong check digit or date is refused before anything is stored', async () => {
  const { user } = await signUp(db, clock.now())
  const error = await refusal(
    bindIdCard(
      db,
      cipher,
      user.id,
      { realName: '王五', idCard: '110105194912310021' },
      clock.now(),
    ),
  )
  assert.equal(error.userMessage, '身份证号校验位不正确，请核对')
  assert.deepEqual(await listBoundCards(db, cipher, user.id), [])
})

test('by phone: only the caller’s own number', async () => {
  const { user, mobile } = await signUp(db, clock.now())
  assert.equal(await findBoundCardByPhone(db, cipher, { id: user.id, mobile }, mobile!), null)
  const error = await refusal(
    findBoundCardByPhone(db, cipher, { id: user.id, mobile }, '13900000000'),
  )
  assert.equal(error.statusCode, 403)
})
