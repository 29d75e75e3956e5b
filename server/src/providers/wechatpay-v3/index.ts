/*
 * WeChat Pay APIv3, shared by every adapter on the merchant (providers/payments: JSAPI payments and
 * refunds; providers/transfers: 商家转账). See README.md.
 */
export * from './crypto'
export * from './client'
