afterEach(() => {
  jest.useRealTimers()
})
