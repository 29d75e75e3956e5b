// Taro's page hooks (usePageScroll, useReachBottom, ...) read React from the framework runtime, which the
// generated app entry fills in at start-up. Components under test get the same wiring here.
const React = require('react')
const ReactDOM = require('react-dom')
const { createReactApp, connectReactPage } = require('@tarojs/plugin-framework-react/dist/runtime')

createReactApp(() => null, React, ReactDOM, { router: { mode: 'browser' }, pages: [] })
connectReactPage(React, 'jest-page')

afterEach(() => {
  jest.useRealTimers()
})

// @tarojs/test-utils-react 0.1.1 wraps React 18.3's deprecated `react-dom/test-utils` act, which warns on
// every mount; the wrapper still works, so only that one warning is dropped.
const consoleError = console.error
console.error = (...args) => {
  if (typeof args[0] === 'string' && args[0].includes('`ReactDOMTestUtils.act` is deprecated'))
    return
  consoleError(...args)
}
