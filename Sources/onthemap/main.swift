import OnTheMapCLI

OnTheMapMain.run()
