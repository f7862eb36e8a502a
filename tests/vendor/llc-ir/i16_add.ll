; out = a + b (i16, IR add, wrapping)
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 128
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %a = call <128 x i16> @llvm.tpc.ld.tnsr.v128i16.i1(<5 x i32> %c, i8 0, i32 0, <128 x i16> undef, i1 true, i1 false)
  %b = call <128 x i16> @llvm.tpc.ld.tnsr.v128i16.i1(<5 x i32> %c, i8 1, i32 0, <128 x i16> undef, i1 true, i1 false)
  %r = add <128 x i16> %a, %b
  call void @llvm.tpc.st.tnsr.v128i16(<5 x i32> %c, i8 2, <128 x i16> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <128 x i16> @llvm.tpc.ld.tnsr.v128i16.i1(<5 x i32>, i8, i32, <128 x i16>, i1, i1)
declare void @llvm.tpc.st.tnsr.v128i16(<5 x i32>, i8, <128 x i16>, i32, i1, i1)
